/* Unit tests of common/: interning, the u64 map, atomic output files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic.h"
#include "common/path.h"
#include "common/sort.h"
#include "common/strbuf.h"
#include "common/strtab.h"
#include "common/u64map.h"
#include "common/xalloc.h"
#include "stackprof.h"

static void test_intern_equal_pointers(void **state)
{
	struct sp_strtab t;
	char buf[32];
	const char *a, *b, *c;
	int i;

	(void)state;
	sp_strtab_init(&t);
	a = sp_strtab_intern(&t, "helper.constprop", 6);
	b = sp_strtab_intern(&t, "helper", 6);
	c = sp_strtab_intern(&t, "helper.constprop", 16);
	assert_ptr_equal(a, b);
	assert_string_equal(a, "helper");
	assert_ptr_not_equal(a, c);
	/* growth keeps earlier pointers valid and findable */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "f%d", i);
		sp_strtab_intern(&t, buf, strlen(buf));
	}
	assert_ptr_equal(sp_strtab_intern(&t, "helper", 6), a);
	assert_int_equal(t.count, 5002);
	sp_strtab_release(&t);
}

static void test_u64map(void **state)
{
	struct sp_u64map m;
	uint64_t k;

	(void)state;
	sp_u64map_init(&m, 4);
	for (k = 0; k < 100000; k++)
		sp_u64map_put(&m, k * 4096 + 0x400000, (uint32_t)k);
	for (k = 0; k < 100000; k++)
		assert_int_equal(sp_u64map_get(&m, k * 4096 + 0x400000), k);
	assert_int_equal(sp_u64map_get(&m, 0x400001), UINT32_MAX);
	sp_u64map_put(&m, 0x400000, 7);
	assert_int_equal(sp_u64map_get(&m, 0x400000), 7);
	assert_int_equal(m.count, 100000);
	/* swap: the value replaced, or none for a new key */
	assert_int_equal(sp_u64map_swap(&m, 0x400000, 9), 7);
	assert_int_equal(sp_u64map_swap(&m, 0x400001, 3), UINT32_MAX);
	assert_int_equal(sp_u64map_get(&m, 0x400000), 9);
	assert_int_equal(sp_u64map_get(&m, 0x400001), 3);
	assert_int_equal(m.count, 100001);
	sp_u64map_release(&m);
}

/* An array grown one element at a time from nothing to 48 MiB keeps
 * every element through the switch to its own mapping (at 4 MiB outside
 * AddressSanitizer) and the mremap growth after it; then it is freed. */
static void test_big_array_growth(void **state)
{
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, i;

	(void)state;
	for (i = 0; i < ((size_t)6 << 20); i++) {
		SP_BIG_GROW(v, n + 1, cap);
		v[n++] = i * 2654435761u;
		if (i == 1000 || i == ((size_t)1 << 20) || i == ((size_t)6 << 20) - 1) {
			size_t k;

			for (k = 0; k <= i; k++)
				if (v[k] != k * 2654435761u)
					fail_msg("element %zu of %zu lost", k, i);
		}
	}
	assert_true(cap * sizeof(*v) >= ((size_t)48 << 20));
	sp_big_free(v, cap * sizeof(*v));
	sp_big_free(NULL, 0);
}

/* Tables past 4 MiB take the huge-page path: 2 MiB aligned, every byte
 * usable, and the interning table still finds what it holds after
 * growing into it (its slots must start out empty there too). */
static void test_tables_past_huge_page(void **state)
{
	const size_t big = ((size_t)9 << 20) + 5;
	unsigned char *p = sp_xmalloc_table(big);
	struct sp_strtab t;
	const char **first = sp_xmalloc(200000 * sizeof(*first));
	char buf[32];
	int i;

	(void)state;
	assert_int_equal((uintptr_t)p % ((size_t)2 << 20), 0);
	memset(p, 0xa5, big);
	assert_int_equal(p[big - 1], 0xa5);
	free(p);
	free(sp_xmalloc_table(16));
	sp_strtab_init(&t);
	for (i = 0; i < 200000; i++) {
		snprintf(buf, sizeof(buf), "fn_%d", i);
		first[i] = sp_strtab_intern(&t, buf, strlen(buf));
	}
	assert_true(t.nslots * sizeof(*t.slots) >= ((size_t)4 << 20));
	for (i = 0; i < 200000; i++) {
		snprintf(buf, sizeof(buf), "fn_%d", i);
		assert_ptr_equal(sp_strtab_intern(&t, buf, strlen(buf)), first[i]);
	}
	assert_int_equal(t.count, 200000);
	sp_strtab_release(&t);
	free(first);
}

static void test_graph_finalize_dedups(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = sp_graph_add_func(&g);
	b = sp_graph_add_func(&g);
	c = sp_graph_add_func(&g);
	sp_graph_add_edge(&g, a, c, SP_EDGE_CALL, 30);
	sp_graph_add_edge(&g, a, b, SP_EDGE_CALL, 20);
	sp_graph_add_edge(&g, a, b, SP_EDGE_CALL, 10);
	sp_graph_add_edge(&g, a, b, SP_EDGE_TAIL, 40);
	sp_graph_add_edge(&g, c, b, SP_EDGE_CALL, 50);
	sp_graph_finalize(&g);
	assert_int_equal(g.nedges, 4);
	assert_int_equal(g.funcs[a].edge_count, 3);
	assert_int_equal(g.edges[g.funcs[a].edge_first].pc, 10);
	assert_int_equal(g.funcs[b].edge_count, 0);
	assert_int_equal(g.funcs[c].edge_count, 1);
	assert_int_equal(g.edges[g.funcs[c].edge_first].to, b);
	sp_graph_release(&g);
}

/* The edges as qsort orders them and sp_graph_finalize merges them: the
 * reference the sort by caller must give. */
static uint32_t reference_edges(struct sp_edge *v, uint32_t n)
{
	uint32_t i, out = 0;

	qsort(v, n, sizeof(*v), sp_edge_cmp);
	for (i = 0; i < n; i++) {
		if (out && v[out - 1].from == v[i].from && v[out - 1].to == v[i].to &&
		    v[out - 1].kind == v[i].kind) {
			v[out - 1].flags &= v[i].flags;
			if (v[i].how > v[out - 1].how)
				v[out - 1].how = v[i].how;
			if (!(v[out - 1].flags & SP_EDGE_F_ASSUMED))
				v[out - 1].how = SP_RES_NONE;
			continue;
		}
		v[out++] = v[i];
	}
	return out;
}

/* Callers of one edge to a few hundred (insertion sort and qsort per
 * caller), repeats that differ in flags and how, a caller with none. */
static void test_graph_finalize_as_qsort(void **state)
{
	struct sp_graph g;
	struct sp_edge *ref;
	uint32_t i, n, nref, f, n0 = 0, seed = 12345;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < 5000; i++)
		sp_graph_add_func(&g);
	for (i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		f = (seed >> 8) % 5000;
		if (f == 7)
			continue;	/* no calls */
		if (f % 50 == 1)
			f = 0;		/* caller 0 has hundreds, the others a few */
		seed = seed * 1103515245u + 12345u;
		sp_graph_add_edge(&g, f, (seed >> 8) % 8, (seed >> 4) % 2 ? SP_EDGE_CALL :
				  SP_EDGE_TAIL, (seed >> 12) % 4);
		g.edges[g.nedges - 1].flags = (uint8_t)((seed >> 16) % 4);
		g.edges[g.nedges - 1].how = (uint8_t)((seed >> 20) % 3);
	}
	n = g.nedges;
	for (i = 0; i < n; i++)
		n0 += g.edges[i].from == 0;
	assert_true(n0 > 16);	/* sorted by qsort, the others by insertion */
	ref = malloc(n * sizeof(*ref));
	assert_non_null(ref);
	memcpy(ref, g.edges, n * sizeof(*ref));
	nref = reference_edges(ref, n);
	sp_graph_finalize(&g);
	assert_int_equal(g.nedges, nref);
	for (i = 0; i < nref; i++) {
		assert_int_equal(g.edges[i].from, ref[i].from);
		assert_int_equal(g.edges[i].to, ref[i].to);
		assert_int_equal(g.edges[i].kind, ref[i].kind);
		assert_int_equal(g.edges[i].pc, ref[i].pc);
		assert_int_equal(g.edges[i].flags, ref[i].flags);
		assert_int_equal(g.edges[i].how, ref[i].how);
	}
	assert_int_equal(g.funcs[7].edge_count, 0);
	free(ref);
	sp_graph_release(&g);
}

/* A graph without edges keeps g->edges NULL: the loop must not form
 * NULL + 0 (undefined in C; check-asan runs this under UBSan). */
static void test_for_each_edge_without_edges(void **state)
{
	struct sp_graph g;
	const struct sp_edge *e;
	unsigned n = 0;
	uint32_t a;

	(void)state;
	sp_graph_init(&g);
	a = sp_graph_add_func(&g);
	sp_graph_finalize(&g);
	assert_null(g.edges);
	sp_func_for_each_edge(&g, &g.funcs[a], e)
		n++;
	assert_int_equal(n, 0);
	sp_graph_release(&g);
}

static void test_atomic_commit_and_abort(void **state)
{
	char dir[] = "/tmp/sp-atomicXXXXXX", path[64], bad[96];
	struct sp_atomic a;
	struct sp_err err;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	assert_int_equal(sp_atomic_open(&a, path, &err), 0);
	fputs("{}\n", a.fp);
	assert_int_equal(stat(path, &st), -1);	/* invisible until committed */
	assert_int_equal(sp_atomic_commit(&a, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 3);

	assert_int_equal(sp_atomic_open(&a, path, &err), 0);
	fputs("partial", a.fp);
	sp_atomic_abort(&a);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 3);	/* the old file is untouched */

	snprintf(bad, sizeof(bad), "%s/no/such/dir/out", dir);
	assert_int_equal(sp_atomic_open(&a, bad, &err), -1);
	assert_non_null(strstr(err.msg, "cannot write"));
	unlink(path);
	rmdir(dir);
}

/* a device is written in place, never replaced by a renamed file */
static void test_atomic_device_in_place(void **state)
{
	struct sp_atomic a;
	struct sp_err err;
	struct stat st;
	char dir[] = "/tmp/sp-atomicXXXXXX";

	(void)state;
	/* (a /dev/null already replaced by a file, as an older stackprof
	 * run as root did, is no device to test with) */
	if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
		assert_int_equal(sp_atomic_open(&a, "/dev/null", &err), 0);
		fputs("{}\n", a.fp);
		assert_int_equal(sp_atomic_commit(&a, &err), 0);
		assert_int_equal(stat("/dev/null", &st), 0);
		assert_true(S_ISCHR(st.st_mode));
	}

	if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) {
		assert_int_equal(sp_atomic_open(&a, "/dev/full", &err), 0);
		fputs("{}\n", a.fp);
		assert_int_equal(sp_atomic_commit(&a, &err), -1);
		assert_string_equal(err.msg, "cannot write '/dev/full': No space left on device");
		assert_int_equal(stat("/dev/full", &st), 0);
		assert_true(S_ISCHR(st.st_mode));
	}

	assert_non_null(mkdtemp(dir));
	assert_int_equal(sp_atomic_open(&a, dir, &err), -1);
	assert_non_null(strstr(err.msg, "Is a directory"));
	rmdir(dir);
}

static void test_path_in_dir(void **state)
{
	(void)state;
	assert_string_equal(sp_path_in_dir("/b/debian/build/net/socket.c", "/b/debian/build"), "net/socket.c");
	assert_string_equal(sp_path_in_dir("/b/debian/build/net/socket.c", "/b/debian/build/"), "net/socket.c");
	assert_string_equal(sp_path_in_dir("./net/socket.c", "/b"), "net/socket.c");
	assert_string_equal(sp_path_in_dir("/b/debian/buildx/a.c", "/b/debian/build"), "/b/debian/buildx/a.c");
	assert_string_equal(sp_path_in_dir("/usr/include/stdio.h", "/b"), "/usr/include/stdio.h");
	assert_string_equal(sp_path_in_dir("//usr/include/x.h", NULL), "/usr/include/x.h");
	assert_string_equal(sp_path_in_dir("/b/", "/b"), "/b/");
	assert_string_equal(sp_path_in_dir("/a.c", "/"), "/a.c");
}

/* Plain pieces and formatted ones build one string; an empty piece
 * still leaves a string (never NULL once anything was added). */
static void test_strbuf_add(void **state)
{
	struct sp_strbuf sb = { 0 };
	int i;

	(void)state;
	sp_strbuf_add(&sb, "");
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	sp_strbuf_add(&sb, "int(");
	sp_strbuf_addf(&sb, "%s %s", "struct", "file");
	sp_strbuf_addn(&sb, "*)(", 2);	/* the first n bytes only */
	assert_string_equal(sb.buf, "int(struct file*)");
	assert_int_equal(sb.len, strlen("int(struct file*)"));
	for (i = 0; i < 1000; i++)	/* past a few reallocations */
		sp_strbuf_add(&sb, ",x");
	assert_int_equal(sb.len, strlen("int(struct file*)") + 2000);
	assert_string_equal(sb.buf + sb.len - 4, ",x,x");
	free(sb.buf);
}

/* sp_sort_by_key against an insertion sort (stable by construction):
 * records of a key at an offset past other fields, keys that differ in
 * one byte, in several (a pass each), or not at all, many equal. */
struct rec {
	uint32_t seq;
	uint64_t key;
	char pad[5];
};

static void sort_by_insertion(struct rec *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct rec x = v[i];

		for (j = i; j && v[j - 1].key > x.key; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void test_sort_by_key(void **state)
{
	static const uint64_t masks[] = { 0, 0xff, 0xff00, 0x3, 0xffffff, 0xff0000ff00,
					  UINT64_MAX };
	static const size_t sizes[] = { 0, 1, 2, 600 };
	struct rec v[600], want[600];
	size_t m, s, i, n;
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			n = sizes[s];
			for (i = 0; i < n; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				v[i].seq = (uint32_t)i;
				v[i].key = 0x1234500000000000ull | (x & masks[m]);
				memset(v[i].pad, (int)i, sizeof(v[i].pad));
			}
			memcpy(want, v, sizeof(v));
			sort_by_insertion(want, n);
			sp_sort_by_key(v, n, sizeof(*v), offsetof(struct rec, key));
			for (i = 0; i < n; i++) {
				assert_int_equal(v[i].key, want[i].key);
				assert_int_equal(v[i].seq, want[i].seq);
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_equal_pointers),
		cmocka_unit_test(test_u64map),
		cmocka_unit_test(test_tables_past_huge_page),
		cmocka_unit_test(test_big_array_growth),
		cmocka_unit_test(test_graph_finalize_dedups),
		cmocka_unit_test(test_graph_finalize_as_qsort),
		cmocka_unit_test(test_for_each_edge_without_edges),
		cmocka_unit_test(test_atomic_commit_and_abort),
		cmocka_unit_test(test_atomic_device_in_place),
		cmocka_unit_test(test_path_in_dir),
		cmocka_unit_test(test_strbuf_add),
		cmocka_unit_test(test_sort_by_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
