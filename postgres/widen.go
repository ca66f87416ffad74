package postgres

// Widening: a value that does not fit the type a column was given from
// the first rows, in a table the load creates, changes the column's type
// rather than ending the load (unless Options.StrictTypes).
//
// The COPY that meets the value ends cleanly before its row (send), so
// the rows before it stay in the batch; widen then runs, in the same
// transaction, ALTER TABLE ... ALTER COLUMN ... TYPE for each column of
// the row whose value does not fit, and the next COPY, which starts with
// the row, writes the column in its new type. Over several
// connections the ALTER is a step of the batch, which then runs alone as
// a batch that adds a column does (alterStep).

// fits reports whether column c takes a value of kind k as it is: null
// always, else what accepts says.
func fits(c *column, k kind) bool { return k == kNull || accepts(c.ct, k) }

// misfits reports whether the row just read (serially: not a worker's
// tuple) has a value its column's type does not take, in a column that
// may widen to take it.
func (l *copyLoader) misfits() bool {
	if !l.canWiden || l.tuple != nil {
		return false
	}
	found := false
	for i := range l.cols {
		c := &l.cols[i]
		if !c.copied || fits(c, l.cur[i].kind) {
			continue
		}
		if !c.inferred || !fits(&column{ct: declColType(c.seen.add(l.cur[i].kind).declType())}, l.cur[i].kind) {
			return false // a misfit no type change mends: the load's error
		}
		found = true
	}
	return found
}

// widen alters each column whose value in the row being sent does not fit
// to the narrowest type that holds its values so far and the new one:
// the type inference would have given them all (typeSet.declType), so
// bigint becomes double precision for a fraction and numeric for an
// integer past int64 (numeric holds both exactly, a double would round
// it), numbers and booleans become text for a string, and any scalar
// becomes jsonb for an object or array. The stored values are converted
// as PostgreSQL casts them (1.5 becomes the text '1.5'); into jsonb with
// to_jsonb, so a text 'x' becomes the JSON string "x" and a number stays
// a number.
func (l *copyLoader) widen() error {
	for i := range l.cols {
		c := &l.cols[i]
		k := l.cur[i].kind
		if !c.copied || fits(c, k) {
			continue
		}
		c.seen = c.seen.add(k)
		typ := c.seen.declType()
		col := quoteIdent(c.name)
		using := col + "::" + typ
		if typ == TypeJSONB {
			using = "to_jsonb(" + col + ")"
		}
		alter := "ALTER TABLE " + quoteIdent(l.table) + " ALTER COLUMN " + col + " TYPE " + typ + " USING " + using
		if l.building {
			l.alterStep(alter)
		} else if _, err := l.conn.Exec(l.ctx, alter); err != nil {
			return rowErr(l.row, l.rowOff, err)
		}
		l.widened = append(l.widened, c.name+": "+c.typ+" → "+typ)
		c.typ, c.ct = typ, declColType(typ)
	}
	return nil
}

// alterStep adds alter, an ALTER TABLE of the row being sent, to the
// batch being built over several connections. The batch then runs alone
// (the next starts once it has committed), and waits, before its first
// ALTER, for the batch before it to commit, as it does before COMMIT: an
// earlier batch whose COPY had not yet locked the table would otherwise
// queue behind ALTER's exclusive lock while this batch waits for it to
// commit, a deadlock PostgreSQL breaks only after deadlock_timeout.
func (l *copyLoader) alterStep(alter string) {
	b := l.multi.cur
	if !b.waits {
		b.waits = true
		b.add(&step{kind: stepWait})
	}
	b.alone = true
	b.add(&step{kind: stepExec, sql: alter, row: l.row, off: l.rowOff})
}
