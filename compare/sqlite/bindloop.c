/*
 * bindloop: the C floor for the tasks benchmark. It inserts n rows
 * alternating ("Clean Room", 0) and ("Check Twitter", 1) into
 * tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER)
 * with one prepared single-row INSERT, bound, stepped and reset per row,
 * in one transaction. No JSON is read: this is what SQLite itself costs.
 *
 * Built by run.sh against the SQLite amalgamation that go-sqlite3 bundles
 * (sqlite3-binding.c in its module directory), with go-sqlite3's defines.
 *
 * usage: bindloop DB N
 * prints: rows seconds rows/s (of the loop from BEGIN to COMMIT)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "sqlite3-binding.h"

static void check(sqlite3 *db, int rc, const char *what) {
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		fprintf(stderr, "bindloop: %s: %s\n", what, sqlite3_errmsg(db));
		exit(1);
	}
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: bindloop DB N\n");
		return 2;
	}
	long n = atol(argv[2]);
	sqlite3 *db;
	check(db, sqlite3_open(argv[1], &db), "open");
	check(db, sqlite3_exec(db, "CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER)", 0, 0, 0), "create");

	static const char *titles[2] = {"Clean Room", "Check Twitter"};
	static const int lens[2] = {10, 13};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check(db, sqlite3_exec(db, "BEGIN", 0, 0, 0), "begin");
	sqlite3_stmt *st;
	check(db, sqlite3_prepare_v2(db, "INSERT INTO tasks (title, done) VALUES (?, ?)", -1, &st, 0), "prepare");
	for (long i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, titles[i & 1], lens[i & 1], SQLITE_STATIC);
		sqlite3_bind_int(st, 2, (int)(i & 1));
		check(db, sqlite3_step(st), "step");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	check(db, sqlite3_exec(db, "COMMIT", 0, 0, 0), "commit");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%ld %.6f %.0f\n", n, s, n / s);
	sqlite3_close(db);
	return 0;
}
