package postgres

// QuoteIdent returns name quoted as a PostgreSQL identifier, as Insert
// quotes table and column names: in double quotes, each double quote
// inside doubled, no case folded.
func QuoteIdent(name string) string { return quoteIdent(name) }
