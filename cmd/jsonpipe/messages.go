package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jsonpipe/json/internal/loader"
	"github.com/jsonpipe/json/internal/rowsrc"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// The loaders' errors name their Options, for the programs that set them;
// a person at the command line set flags. The command says its errors in
// its own terms here, at its boundary, and adds a line of advice where
// there is an obvious next step.

// flagTerms rewrites the loaders' names of options into the command's
// flags. Each old string is a whole phrase of a loader message (prefix or
// punctuation included), so that a key or table name quoted in the same
// message is not touched.
var flagTerms = strings.NewReplacer(
	"(Alter adds it)", "(--alter adds it)",
	"sqlite: Upsert needs a primary key", "sqlite: --upsert needs a primary key",
	"Options.PrimaryKey is empty", "no --pk was given",
	"conflict mode ignore needs", "--ignore needs",
	"conflict mode replace needs", "--replace needs",
	"conflict mode upsert needs", "--upsert needs",
	"conflict mode ignore:", "--ignore:",
	"conflict mode replace:", "--replace:",
	"conflict mode upsert:", "--upsert:",
	"(Options.PrimaryKey, or the table's own)", "(--pk, or the table's own)",
	"(MaxValueSize)", "(--max-value-size)",
	"sqlite: NotNull:", "sqlite: --not-null:",
	"postgres: NotNull:", "postgres: --not-null:",
	"sqlite: Defaults:", "sqlite: --default:",
	"postgres: Defaults:", "postgres: --default:",
)

// termsError is a loader's error with its message in the command's
// terms; errors.As and errors.Is still find the loader's.
type termsError struct {
	err error
	msg string
}

func (e *termsError) Error() string { return e.msg }
func (e *termsError) Unwrap() error { return e.err }

// inFlagTerms returns err said in the command's terms.
func inFlagTerms(err error) error {
	msg := err.Error()
	if m := flagTerms.Replace(msg); m != msg {
		return &termsError{err: err, msg: m}
	}
	return err
}

// hint is a line of advice, in the command's terms, for a load that
// failed with err, or "". opts are the load's options.
func hint(err error, opts loader.Options) string {
	var ll *loader.LooksLikeError
	if errors.As(err, &ll) {
		return fmt.Sprintf("the input looks like %s: load it with --%s", ll.Like, strings.ToLower(ll.Like))
	}
	if opts.Conflict == rowsrc.Fail && isUniqueViolation(err) {
		return "a row's key is stored already: --ignore skips such rows, --replace replaces them, --upsert updates them"
	}
	return ""
}

// isUniqueViolation reports whether err is a database's refusal of a
// duplicate primary key or unique value.
func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" // unique_violation
}

// summary is the line a load ends with: what happened to its rows, in
// words a person reads, with plurals right. What the database can tell is
// split: with --ignore, rows inserted and rows skipped (a key stored
// already); with --replace and --upsert, PostgreSQL says which rows
// updated a stored one (and rows of one key in one batch are one
// change, said as merged), while SQLite does not, so the line says
// "inserted or replaced" rather than guess. pg says the database is
// PostgreSQL.
func summary(res loader.Result, opts *loader.Options, table string, pg bool, elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString("jsonpipe: ")
	var notes []string // said in parentheses after the main clause
	switch opts.Conflict {
	case rowsrc.Ignore:
		fmt.Fprintf(&b, "inserted %s into %s", rowCount(res.Changes), table)
		if skipped := res.Rows - res.Changes; skipped > 0 {
			notes = append(notes, fmt.Sprintf("skipped %s whose key was stored already", commas(skipped)))
		}
	case rowsrc.Replace, rowsrc.Upsert:
		what := "replaced"
		if opts.Conflict == rowsrc.Upsert {
			what = "updated"
		}
		if pg {
			fmt.Fprintf(&b, "inserted %s into %s and %s %s", rowCount(res.Changes-res.Updated), table, what, commas(res.Updated))
		} else {
			fmt.Fprintf(&b, "inserted or %s %s into %s", what, rowCount(res.Changes), table)
			notes = append(notes, "SQLite does not say how many of each")
		}
		if merged := res.Rows - res.Changes; merged > 0 {
			notes = append(notes, fmt.Sprintf("%s merged into a later row of the same key", rowCount(merged)))
		}
	default:
		fmt.Fprintf(&b, "inserted %s into %s", rowCount(res.Rows), table)
	}
	if res.Created {
		notes = append(notes, "created the table")
	}
	if res.Truncated {
		notes = append(notes, "its rows deleted first")
	}
	if n := len(res.Added); n > 0 {
		names := make([]string, 0, min(n, 5))
		for _, c := range res.Added[:min(n, 5)] {
			names = append(names, loader.ShortName(c))
		}
		list := strings.Join(names, ", ")
		if n > 5 {
			list += ", ..."
		}
		notes = append(notes, fmt.Sprintf("added %s: %s", plural(int64(n), "column", "columns"), list))
	}
	if w := widenedList(res.Widened); w != "" {
		notes = append(notes, w)
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(notes, "; "))
	}
	fmt.Fprintf(&b, " in %v, %s/s", elapsed.Round(time.Millisecond), rowCount(int64(float64(res.Rows)/elapsed.Seconds())))
	return b.String()
}

// plural is "1 column" or "N columns", N with thousands separators.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return commas(n) + " " + many
}

// widenedList says which columns a load widened, each with its final
// type: "widened n to double precision", "widened 2 columns: n to text, m
// to jsonb" (a column widened twice once, with its last type; at most
// five named). It is "" when none was.
func widenedList(widened []string) string {
	var names, types []string
	for _, w := range widened {
		// "name: old type → new type": types hold neither ": " nor " → ".
		arrow := strings.LastIndex(w, " → ")
		colon := strings.LastIndex(w[:arrow], ": ")
		name, typ := w[:colon], w[arrow+len(" → "):]
		if i := slices.Index(names, name); i >= 0 {
			types[i] = typ
			continue
		}
		names, types = append(names, name), append(types, typ)
	}
	if len(names) == 0 {
		return ""
	}
	var list []string
	for i := range names[:min(len(names), 5)] {
		list = append(list, loader.ShortName(names[i])+" to "+types[i])
	}
	s := strings.Join(list, ", ")
	if len(names) > 5 {
		s += ", ..."
	}
	if len(names) == 1 {
		return "widened " + s
	}
	return "widened " + plural(int64(len(names)), "column", "columns") + ": " + s
}
