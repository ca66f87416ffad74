/*
 * stepfloor: the SQLite floor of a list request, for benchmarks/serve.sh.
 * It prepares SQL once on the database DB (read only), then, for at least
 * SECONDS, runs it again and again: steps every row and reads every column
 * (its type, then its integer, double or text as the driver reads it), and
 * resets it. No JSON, no HTTP, no Go: what SQLite alone costs for a page.
 *
 *   stepfloor DB SECONDS SQL
 *
 * prints one line: "requests=R rows=N ns-per-row=X ns-per-request=Y
 * sqlite=VERSION" (rows: of one run; the times are the mean over the runs;
 * VERSION the system library's, which may be older than the one go-sqlite3
 * builds into jsonpipe serve and the baseline).
 *
 *   gcc -O2 -o stepfloor stepfloor.c -lsqlite3
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: stepfloor DB SECONDS SQL\n");
		return 2;
	}
	sqlite3 *db;
	sqlite3_stmt *st;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, argv[3], -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "stepfloor: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	double secs = atof(argv[2]), start = now(), t = start;
	long long runs = 0, rows = 0, sink = 0;
	int ncol = sqlite3_column_count(st);
	while (t - start < secs) {
		for (int k = 0; k < 16; k++) {
			long long n = 0;
			int rc;
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				for (int c = 0; c < ncol; c++) {
					switch (sqlite3_column_type(st, c)) {
					case SQLITE_INTEGER:
						sink += sqlite3_column_int64(st, c);
						break;
					case SQLITE_FLOAT:
						sink += (long long)sqlite3_column_double(st, c);
						break;
					case SQLITE_NULL:
						break;
					default:
						sink += sqlite3_column_bytes(st, c);
						sink += sqlite3_column_text(st, c)[0];
					}
				}
				n++;
			}
			if (rc != SQLITE_DONE) {
				fprintf(stderr, "stepfloor: %s\n", sqlite3_errmsg(db));
				return 1;
			}
			sqlite3_reset(st);
			rows = n;
			runs++;
		}
		t = now();
	}
	double ns = (t - start) * 1e9;
	printf("requests=%lld rows=%lld ns-per-row=%.1f ns-per-request=%.0f sqlite=%s sink=%lld\n",
	       runs, rows, rows ? ns / (double)(runs * rows) : 0, ns / (double)runs, sqlite3_libversion(), sink & 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}
