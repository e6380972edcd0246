#!/bin/sh
# Are --indirect=types' targets sound on a real program?  SQLite (its
# amalgamation, as the npm package better-sqlite3 ships it: npm is the
# registry this machine reaches) is built with -finstrument-functions and
# tests/oracle/icall_trace.c, and a small shell of our own runs it over
# varied SQL: tables and indexes, joins, views, triggers, window
# functions, JSON, common table expressions, user functions, collations
# and aggregates registered through the C API (callbacks passed as
# arguments), virtual tables, savepoints and an on-disk database.  Every
# (indirect call site, callee) pair the runs take is checked against the
# targets stackprof gives that site (tests/e2e/icall_check.py).
#   bench/indirect-soundness.sh [WORKDIR]   (default: a temporary one)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${STACKPROF:-$top/stackprof}
work=${1:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"

if [ ! -f package/deps/sqlite3/sqlite3.c ]; then
	npm pack --silent better-sqlite3@12.11.1 >/dev/null
	tar xzf better-sqlite3-12.11.1.tgz package/deps/sqlite3
fi
cp package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h .
cp "$top/tests/oracle/icall_trace.c" .

cat >shell.c <<'EOF'
/* shell.c - runs each SQL file named on the command line on one
 * database (":memory:" unless SQLITE_DB names a file), with a few user
 * functions, an aggregate and a collation registered as callbacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

static void twice(sqlite3_context *c, int n, sqlite3_value **v)
{
	(void)n;
	sqlite3_result_int64(c, 2 * sqlite3_value_int64(v[0]));
}

static void rev(sqlite3_context *c, int n, sqlite3_value **v)
{
	const unsigned char *s = sqlite3_value_text(v[0]);
	size_t len = s ? strlen((const char *)s) : 0, i;
	char *r = sqlite3_malloc((int)len + 1);

	(void)n;
	for (i = 0; i < len; i++)
		r[i] = (char)s[len - 1 - i];
	r[len] = 0;
	sqlite3_result_text(c, r, (int)len, sqlite3_free);
}

static void sumsq_step(sqlite3_context *c, int n, sqlite3_value **v)
{
	sqlite3_int64 *acc = sqlite3_aggregate_context(c, sizeof(*acc));
	sqlite3_int64 x = sqlite3_value_int64(v[0]);

	(void)n;
	if (acc)
		*acc += x * x;
}

static void sumsq_final(sqlite3_context *c)
{
	sqlite3_int64 *acc = sqlite3_aggregate_context(c, 0);

	sqlite3_result_int64(c, acc ? *acc : 0);
}

static int nocase_rev(void *arg, int n1, const void *a, int n2, const void *b)
{
	(void)arg;
	return n1 != n2 ? n2 - n1 : -memcmp(a, b, (size_t)n1);
}

static int row(void *arg, int n, char **vals, char **names)
{
	(void)names;
	*(long *)arg += n + (vals[0] ? (long)strlen(vals[0]) : 0);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = getenv("SQLITE_DB");
	sqlite3 *db;
	long sum = 0;
	int i;

	if (sqlite3_open(path ? path : ":memory:", &db) != SQLITE_OK)
		return 1;
	sqlite3_create_function(db, "twice", 1, SQLITE_UTF8, NULL, twice, NULL, NULL);
	sqlite3_create_function(db, "rev", 1, SQLITE_UTF8, NULL, rev, NULL, NULL);
	sqlite3_create_function(db, "sumsq", 1, SQLITE_UTF8, NULL, NULL, sumsq_step, sumsq_final);
	sqlite3_create_collation(db, "revcase", SQLITE_UTF8, NULL, nocase_rev);
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *sql, *err = NULL;
		long len;

		if (!f)
			return 1;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		sql = malloc((size_t)len + 1);
		sql[fread(sql, 1, (size_t)len, f)] = 0;
		fclose(f);
		if (sqlite3_exec(db, sql, row, &sum, &err) != SQLITE_OK) {
			fprintf(stderr, "%s: %s\n", argv[i], err);
			return 1;
		}
		free(sql);
	}
	printf("%ld\n", sum);
	sqlite3_close(db);
	return 0;
}
EOF

cat >a.sql <<'EOF'
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO t SELECT i, printf('row%d', i), i * 0.5 FROM n;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(c), twice(max(a)), sumsq(a % 7) FROM t;
SELECT b, rev(b) FROM t WHERE a BETWEEN 10 AND 20 ORDER BY b COLLATE revcase;
SELECT a, sum(c) OVER (ORDER BY a ROWS 3 PRECEDING) FROM t WHERE a < 50;
UPDATE t SET c = c * 2 WHERE a % 3 = 0;
DELETE FROM t WHERE a % 5 = 0;
SELECT group_concat(b, ','), avg(c) FROM t GROUP BY a % 10 HAVING count(*) > 1;
EOF
cat >b.sql <<'EOF'
CREATE TABLE u(x, y);
INSERT INTO u VALUES (1, '{"k": [1, 2, 3]}'), (2, '{"k": {"a": 1}}'), (3, NULL);
SELECT x, json_extract(y, '$.k'), json_type(y) FROM u;
SELECT key, value FROM u, json_each(u.y) WHERE y IS NOT NULL;
CREATE VIEW v AS SELECT x * 2 AS d FROM u;
CREATE TRIGGER tr AFTER INSERT ON u BEGIN INSERT INTO u VALUES (NEW.x + 100, NULL); END;
INSERT INTO u VALUES (4, '[]');
SELECT * FROM v JOIN u ON v.d = u.x;
SAVEPOINT s1; DELETE FROM u; ROLLBACK TO s1; RELEASE s1;
SELECT upper(lower('MiXeD')), substr('abcdef', 2, 3), replace('aaa', 'a', 'b'), hex(randomblob(4)) IS NOT NULL;
SELECT date('2024-02-29', '+1 year'), strftime('%s', '2000-01-01'), julianday('now') > 0;
EOF
cat >c.sql <<'EOF'
CREATE TABLE p(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES p(id), name TEXT UNIQUE);
INSERT INTO p VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'c');
WITH RECURSIVE tree(id, depth) AS (SELECT 1, 0 UNION ALL
  SELECT p.id, depth + 1 FROM p JOIN tree ON p.parent = tree.id)
SELECT id, depth FROM tree ORDER BY depth DESC;
SELECT name, (SELECT count(*) FROM p c WHERE c.parent = p.id) FROM p;
CREATE TABLE q AS SELECT * FROM p WHERE id > 1;
SELECT * FROM p LEFT JOIN q USING (id) WHERE q.id IS NULL;
SELECT * FROM p WHERE name LIKE '%o%' OR name GLOB '[ab]*';
PRAGMA integrity_check;
ANALYZE;
EXPLAIN QUERY PLAN SELECT * FROM p WHERE name = 'a';
VACUUM;
EOF

flags="-O2 -g -fno-pie"
gcc $flags -finstrument-functions -c sqlite3.c shell.c
gcc $flags -c icall_trace.c
gcc -no-pie -o sqlite sqlite3.o shell.o icall_trace.o -lm
rm -f trace.txt db.sqlite
export ICALL_TRACE="$work/trace.txt"
./sqlite a.sql >/dev/null
./sqlite b.sql >/dev/null
./sqlite c.sql >/dev/null
./sqlite a.sql b.sql c.sql >/dev/null
SQLITE_DB=db.sqlite ./sqlite a.sql c.sql >/dev/null
SQLITE_DB=db.sqlite ./sqlite b.sql >/dev/null
unset ICALL_TRACE

/usr/bin/time -f 'stackprof: %e s, %M KiB' "$sp" --json --indirect=types -v -o report.json sqlite
python3 "$top/tests/e2e/icall_check.py" sqlite report.json trace.txt --min-percent 0 --show 40
