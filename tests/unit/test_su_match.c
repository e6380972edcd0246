/* Unit tests of su/match.c and su/find.c on hand-built graphs. */
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

#include "common/xalloc.h"
#include "su/su.h"

struct fixture {
	struct sp_graph g;
	struct su_set set;
	struct sp_frames frames;	/* what su_match gave */
	struct sp_err err;
	int notes;
	char last_note[1024];
};

static int setup(void **state)
{
	struct fixture *fx = sp_xcalloc(1, sizeof(*fx));

	sp_graph_init(&fx->g);
	su_set_init(&fx->set);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	su_set_release(&fx->set);
	sp_frames_release(&fx->frames);
	sp_graph_release(&fx->g);
	free(fx);
	return 0;
}

static void count_note(void *ctx, const char *msg)
{
	struct fixture *fx = ctx;

	fx->notes++;
	snprintf(fx->last_note, sizeof(fx->last_note), "%s", msg);
}

static uint32_t add_cu(struct fixture *fx, const char *comp_dir, const char *name)
{
	uint32_t cu = sp_graph_add_cu(&fx->g);

	fx->g.cus[cu].comp_dir = sp_intern(&fx->g, comp_dir);
	fx->g.cus[cu].name = sp_intern(&fx->g, name);
	return cu;
}

/* A function with code, as the DWARF loader would describe it. */
static uint32_t add_fn(struct fixture *fx, uint32_t cu, const char *name, const char *symbol,
		       const char *file, uint32_t line, uint32_t col)
{
	uint32_t id = sp_graph_add_func(&fx->g);
	struct sp_func *f = &fx->g.funcs[id];

	f->cu = cu;
	f->name = sp_intern(&fx->g, name);
	f->symbol = sp_intern(&fx->g, symbol);
	f->file = sp_intern(&fx->g, file);
	f->line = line;
	f->col = col;
	f->flags = SP_F_HAS_CODE;
	return id;
}

static void add_su(struct fixture *fx, const char *path, const char *text)
{
	assert_int_equal(su_parse_buffer(&fx->set, &fx->g.strs, path, text, strlen(text),
					 false, NULL, NULL, &fx->err), 0);
}

/* su_discover() with elf as the one image of every compile unit */
static int discover(struct fixture *fx, const char *elf, const char *const *dirs,
		    size_t ndirs)
{
	struct su_image img = { elf, 0, fx->g.ncus };

	return su_discover(&fx->set, &fx->g, &img, 1, dirs, ndirs, false, NULL, NULL,
			   &fx->err);
}

static void match(struct fixture *fx)
{
	assert_int_equal(su_match(&fx->g, &fx->set, &fx->frames, count_note, fx, &fx->err), 0);
}

static const struct sp_func *fn(struct fixture *fx, uint32_t id)
{
	return &fx->g.funcs[id];
}

/* The frame su_match gave id, NULL when none: at most one row each. */
static const struct sp_frame *frame_of(struct fixture *fx, uint32_t id)
{
	const struct sp_frame *found = NULL;
	size_t i;

	for (i = 0; i < fx->frames.n; i++)
		if (fx->frames.v[i].func == id) {
			assert_null(found);
			found = &fx->frames.v[i];
		}
	return found;
}

static void assert_frame(struct fixture *fx, uint32_t id, uint64_t self, enum sp_qual q)
{
	const struct sp_frame *f = frame_of(fx, id);

	assert_non_null(f);
	assert_int_equal(f->bytes, self);
	assert_int_equal(f->qual, q);
}

static void assert_no_frame(struct fixture *fx, uint32_t id)
{
	assert_null(frame_of(fx, id));
}

static void test_same_name_statics(void **state)
{
	struct fixture *fx = *state;
	uint32_t x = add_cu(fx, "/src", "x/util.c");
	uint32_t y = add_cu(fx, "/src", "y/util.c");
	uint32_t fx_helper = add_fn(fx, x, "helper", "helper", "x/util.c", 3, 12);
	uint32_t fy_helper = add_fn(fx, y, "helper", "helper", "y/util.c", 3, 12);

	/* y's file first: order must not decide */
	add_su(fx, "/src/y/util.su", "y/util.c:3:12:helper\t48\tstatic\n");
	add_su(fx, "/src/x/util.su", "x/util.c:3:12:helper\t16\tdynamic\n");
	match(fx);
	assert_frame(fx, fx_helper, 16, SP_QUAL_DYNAMIC);
	assert_frame(fx, fy_helper, 48, SP_QUAL_STATIC);
	assert_string_equal(fn(fx, fx_helper)->file, "x/util.c");
	assert_int_equal(fx->g.su_matched, 2);
	assert_int_equal(fx->notes, 0);
}

static void test_moved_tree_longest_suffix(void **state)
{
	struct fixture *fx = *state;
	uint32_t x = add_cu(fx, "/build/src", "drivers/x/util.c");
	uint32_t y = add_cu(fx, "/build/src", "fs/y/util.c");
	uint32_t fxh = add_fn(fx, x, "helper", "helper", "drivers/x/util.c", 3, 12);
	uint32_t fyh = add_fn(fx, y, "helper", "helper", "fs/y/util.c", 3, 12);

	/* the tree was copied: no path is equal, the stems and dirs are */
	add_su(fx, "/home/me/tree/fs/y/util.su", "fs/y/util.c:3:12:helper\t48\tstatic\n");
	add_su(fx, "/home/me/tree/drivers/x/util.su",
	       "drivers/x/util.c:3:12:helper\t16\tstatic\n");
	match(fx);
	assert_frame(fx, fxh, 16, SP_QUAL_STATIC);
	assert_frame(fx, fyh, 48, SP_QUAL_STATIC);
}

/* CMake's "util.c.su" (object "util.c.o") claims its unit as
 * "util.su" would: the rows alone cannot tell the two statics apart. */
static void test_cmake_su_names(void **state)
{
	struct fixture *fx = *state;
	uint32_t x = add_cu(fx, "/src/x", "util.c");
	uint32_t y = add_cu(fx, "/src/y", "util.c");
	uint32_t fxh = add_fn(fx, x, "helper", "helper", "util.c", 3, 12);
	uint32_t fyh = add_fn(fx, y, "helper", "helper", "util.c", 3, 12);

	add_su(fx, "/build/CMakeFiles/p.dir/y/util.c.su", "util.c:3:12:helper\t48\tstatic\n");
	add_su(fx, "/build/CMakeFiles/p.dir/x/util.c.su", "util.c:3:12:helper\t16\tstatic\n");
	match(fx);
	assert_frame(fx, fxh, 16, SP_QUAL_STATIC);
	assert_frame(fx, fyh, 48, SP_QUAL_STATIC);
}

static void test_clones_share_location(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/src", "a.c");
	uint32_t plain = add_fn(fx, cu, "helper", "helper", "a.c", 3, 12);
	uint32_t clone = add_fn(fx, cu, "helper", "helper.constprop.0", "a.c", 3, 12);
	uint32_t clone1 = add_fn(fx, cu, "helper", "helper.constprop.1", "a.c", 3, 12);

	add_su(fx, "/src/a.su", "a.c:3:12:helper.constprop\t32\tstatic\n"
				"a.c:3:12:helper\t16\tstatic\n"
				"a.c:3:12:helper.constprop\t40\tstatic\n");
	match(fx);
	assert_frame(fx, plain, 16, SP_QUAL_STATIC);
	assert_string_equal(fn(fx, plain)->name, "helper");
	/* two rows of one spelling go to the clones in order */
	assert_frame(fx, clone, 32, SP_QUAL_STATIC);
	assert_frame(fx, clone1, 40, SP_QUAL_STATIC);
	assert_string_equal(fn(fx, clone)->name, "helper.constprop");
	assert_ptr_equal(fn(fx, clone)->name, sp_intern(&fx->g, "helper.constprop"));
	assert_int_equal(fx->g.su_matched, 3);
}

static void test_numbered_clone_parts(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/src", "a.c");
	uint32_t plain = add_fn(fx, cu, "foo", "foo", "a.c", 7, 5);
	uint32_t isra = add_fn(fx, cu, "foo", "foo.isra.0", "a.c", 7, 5);
	uint32_t both = add_fn(fx, cu, "foo", "foo.constprop.0.isra.0", "a.c", 7, 5);
	uint32_t part = add_fn(fx, cu, "foo", "foo.part.0", "a.c", 7, 5);

	add_su(fx, "/src/a.su", "a.c:7:5:foo.constprop.isra\t24\tstatic\n"
				"a.c:7:5:foo.part\t8\tstatic\n"
				"a.c:7:5:foo\t64\tstatic\n");
	match(fx);
	assert_frame(fx, both, 24, SP_QUAL_STATIC);
	assert_frame(fx, part, 8, SP_QUAL_STATIC);
	assert_frame(fx, plain, 64, SP_QUAL_STATIC);
	assert_no_frame(fx, isra);
}

static void test_header_inline_in_two_units(void **state)
{
	struct fixture *fx = *state;
	uint32_t a = add_cu(fx, "/k", "a.c");
	uint32_t b = add_cu(fx, "/k", "b.c");
	uint32_t la = add_fn(fx, a, "lh", "lh", "./include/list.h", 10, 20);
	uint32_t lb = add_fn(fx, b, "lh", "lh", "./include/list.h", 10, 20);
	uint32_t ma = add_fn(fx, a, "main", "main", "a.c", 3, 5);

	add_su(fx, "/k/b.su", "./include/list.h:10:20:lh\t24\tstatic\n");
	add_su(fx, "/k/a.su", "./include/list.h:10:20:lh\t8\tstatic\n"
			      "a.c:3:5:main\t100\tstatic\n");
	match(fx);
	assert_frame(fx, la, 8, SP_QUAL_STATIC);
	assert_frame(fx, lb, 24, SP_QUAL_STATIC);
	assert_frame(fx, ma, 100, SP_QUAL_STATIC);
}

static void test_unlinked_program_ignored(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/src", "a.c");
	uint32_t h = add_fn(fx, cu, "helper", "helper", "a.c", 3, 12);

	/* one row of the same location and name, but the file is another
	 * program's: most of its rows are for code not in the image */
	add_su(fx, "/src/tools/other.su", "a.c:3:12:helper\t99\tstatic\n"
					  "other.c:5:1:main\t8\tstatic\n"
					  "other.c:9:1:run\t8\tstatic\n");
	add_su(fx, "/src/a.su", "a.c:9:1:gone\t8\tstatic\n");
	match(fx);
	assert_no_frame(fx, h);
	assert_int_equal(fx->g.su_rows, 4);
	assert_int_equal(fx->g.su_matched, 0);
	assert_int_equal(fx->g.su_files, 2);
	assert_int_equal(fx->notes, 4);
	assert_string_equal(fx->last_note, "/src/a.su:1: no function in the image for 'gone'");
}

static void test_concatenated_file(void **state)
{
	struct fixture *fx = *state;
	uint32_t x = add_cu(fx, "/src", "x/util.c");
	uint32_t y = add_cu(fx, "/src", "y/util.c");
	uint32_t hx = add_fn(fx, x, "helper", "helper", "x/util.c", 3, 12);
	uint32_t hy = add_fn(fx, y, "helper", "helper", "y/util.c", 3, 12);
	uint32_t m = add_fn(fx, y, "main", "main", "y/util.c", 9, 5);

	/* all .su files concatenated: rows carry their own locations */
	add_su(fx, "/tmp/all.su", "y/util.c:3:12:helper\t48\tstatic\n"
				  "x/util.c:3:12:helper\t16\tstatic\n"
				  "y/util.c:9:5:main\t64\tstatic\n"
				  "z.c:1:1:nothere\t8\tstatic\n");
	match(fx);
	assert_frame(fx, hx, 16, SP_QUAL_STATIC);
	assert_frame(fx, hy, 48, SP_QUAL_STATIC);
	assert_frame(fx, m, 64, SP_QUAL_STATIC);
	assert_int_equal(fx->g.su_matched, 3);
	assert_int_equal(fx->notes, 1);
}

static void test_source_built_twice(void **state)
{
	struct fixture *fx = *state;
	/* one source compiled into two objects, both linked (libtool's
	 * per-target object names); the second build has no ctf_open_bfd */
	uint32_t full = add_cu(fx, "/b/libctf", "ctf-open.c");
	uint32_t nobfd = add_cu(fx, "/b/libctf", "ctf-open.c");
	uint32_t f_open = add_fn(fx, full, "ctf_open", "ctf_open", "ctf-open.c", 10, 1);
	uint32_t f_bfd = add_fn(fx, full, "ctf_open_bfd", "ctf_open_bfd", "ctf-open.c", 20, 1);
	uint32_t n_open = add_fn(fx, nobfd, "ctf_open", "ctf_open", "ctf-open.c", 10, 1);

	/* the nobfd file comes first, the full unit first: a greedy match
	 * by order would cross them */
	add_su(fx, "/b/libctf/libctf_nobfd_la-ctf-open.su",
	       "ctf-open.c:10:1:ctf_open\t16\tstatic\n");
	add_su(fx, "/b/libctf/libctf_la-ctf-open.su",
	       "ctf-open.c:10:1:ctf_open\t32\tstatic\n"
	       "ctf-open.c:20:1:ctf_open_bfd\t64\tstatic\n");
	match(fx);
	assert_frame(fx, f_open, 32, SP_QUAL_STATIC);
	assert_frame(fx, f_bfd, 64, SP_QUAL_STATIC);
	assert_frame(fx, n_open, 16, SP_QUAL_STATIC);
	assert_int_equal(fx->g.su_matched, 3);
}

static void test_other_build_of_source_loses(void **state)
{
	struct fixture *fx = *state;
	/* this library is the nobfd build; the full build's file fits as
	 * many rows but also has rows for code that is not here */
	uint32_t cu = add_cu(fx, "/b/libctf", "ctf-open.c");
	uint32_t f_open = add_fn(fx, cu, "ctf_open", "ctf_open", "ctf-open.c", 10, 1);

	add_su(fx, "/b/libctf/libctf_la-ctf-open.su",
	       "ctf-open.c:10:1:ctf_open\t32\tstatic\n"
	       "ctf-open.c:20:1:ctf_open_bfd\t64\tstatic\n");
	add_su(fx, "/b/libctf/libctf_nobfd_la-ctf-open.su",
	       "ctf-open.c:10:1:ctf_open\t16\tstatic\n");
	match(fx);
	assert_frame(fx, f_open, 16, SP_QUAL_STATIC);
	assert_int_equal(fx->g.su_matched, 1);
}

static void test_same_basename_in_one_unit(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/src", "a.c");
	uint32_t x = add_fn(fx, cu, "f", "f", "include/x/util.h", 5, 1);
	uint32_t y = add_fn(fx, cu, "f", "f", "include/y/util.h", 5, 1);

	add_su(fx, "/src/a.su", "include/y/util.h:5:1:f\t24\tstatic\n");
	match(fx);
	assert_frame(fx, y, 24, SP_QUAL_STATIC);
	assert_no_frame(fx, x);
}

static void test_stale_copy_loses(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/old/place", "a.c");
	uint32_t f = add_fn(fx, cu, "f", "f", "a.c", 3, 5);
	uint32_t g = add_fn(fx, cu, "g", "g", "a.c", 9, 5);

	/* neither path is the unit's; the copy that fits the code wins */
	add_su(fx, "/x/a.su", "a.c:4:5:f\t99\tstatic\n"
			      "a.c:9:5:g\t99\tstatic\n");
	add_su(fx, "/y/a.su", "a.c:3:5:f\t16\tstatic\n"
			      "a.c:9:5:g\t32\tstatic\n");
	match(fx);
	assert_frame(fx, f, 16, SP_QUAL_STATIC);
	assert_frame(fx, g, 32, SP_QUAL_STATIC);
	assert_int_equal(fx->g.su_rows, 4);
	assert_int_equal(fx->g.su_matched, 2);
	assert_int_equal(fx->notes, 2);
}

static void test_lto_partition(void **state)
{
	struct fixture *fx = *state;
	uint32_t a = add_cu(fx, "/p", "a.c");
	uint32_t b = add_cu(fx, "/p", "b.c");
	uint32_t sa = add_fn(fx, a, "same", "same", "a.c", 4, 38);
	uint32_t sb = add_fn(fx, b, "same", "same.lto_priv.0", "b.c", 2, 38);
	uint32_t r = add_fn(fx, a, "rec", "rec.constprop.0", "a.c", 3, 38);

	add_su(fx, "/p/prog.ltrans0.ltrans.su", "a.c:3:38:rec.constprop\t8\tstatic\n"
						"a.c:4:38:same\t32\tstatic\n"
						"b.c:2:38:same\t80\tstatic\n"
						"b.c:2:38:other\t80\tstatic\n");
	match(fx);
	assert_frame(fx, r, 8, SP_QUAL_STATIC);
	assert_frame(fx, sa, 32, SP_QUAL_STATIC);
	assert_frame(fx, sb, 80, SP_QUAL_STATIC);
	/* a global match needs the name to fit */
	assert_int_equal(fx->g.su_matched, 3);
}

static void test_clang_rows(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/c", "y.cc");
	uint32_t g = add_fn(fx, cu, "g", "_Z1gv", "y.cc", 4, 5);
	uint32_t v = add_fn(fx, cu, "vector", "_ZNSt6vectorIiSaIiEEC2Ev",
			    "/usr/include/c++/12/bits/stl_vector.h", 526, 7);

	/* no column; header functions are named after the main file */
	add_su(fx, "/c/y.su", "y.cc:4:_Z1gv\t120\tstatic\n"
			      "y.cc:526:_ZNSt6vectorIiSaIiEEC2Ev\t24\tstatic\n");
	match(fx);
	assert_frame(fx, g, 120, SP_QUAL_STATIC);
	assert_int_equal(fn(fx, g)->col, 5);	/* kept when the row has none */
	assert_frame(fx, v, 24, SP_QUAL_STATIC);
}

static void test_only_functions_with_code(void **state)
{
	struct fixture *fx = *state;
	uint32_t cu = add_cu(fx, "/src", "a.c");
	uint32_t decl = add_fn(fx, cu, "f", "f", "a.c", 3, 5);
	uint32_t other;

	fx->g.funcs[decl].flags = SP_F_EXTERNAL;
	other = add_fn(fx, cu, "f", "f", "a.c", 3, 5);
	add_su(fx, "/src/a.su", "a.c:3:5:f\t16\tstatic\n"
				"a.c:3:5:f\t24\tstatic\n");
	match(fx);
	assert_no_frame(fx, decl);
	/* each function takes at most one row */
	assert_frame(fx, other, 16, SP_QUAL_STATIC);
	assert_int_equal(fx->g.su_matched, 1);
	assert_int_equal(fx->notes, 1);
}

static void test_relative_su_path(void **state)
{
	struct fixture *fx = *state;
	char *cwd = getcwd(NULL, 0);
	uint32_t cu, f, g;

	assert_non_null(cwd);
	cu = add_cu(fx, cwd, "kernel/fork.c");
	f = add_fn(fx, cu, "copy", "copy", "kernel/fork.c", 30, 1);
	/* a decoy whose stem matches: the exact path must win */
	g = add_fn(fx, add_cu(fx, "/elsewhere", "fork.c"), "copy", "copy", "fork.c", 30, 1);
	add_su(fx, "./kernel/../kernel/fork.su", "kernel/fork.c:30:1:copy\t40\tstatic\n");
	match(fx);
	assert_frame(fx, f, 40, SP_QUAL_STATIC);
	assert_no_frame(fx, g);
	free(cwd);
}

/* ---- discovery ---- */

static void make_dirs(const char *root, const char *rel)
{
	char path[512];
	char *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	mkdir(path, 0700);
}

static void write_file(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static bool has_path(const struct su_set *s, const char *suffix)
{
	uint32_t i;
	size_t n = strlen(suffix);

	for (i = 0; i < s->npaths; i++) {
		size_t len = strlen(s->paths[i]);

		if (len >= n && !strcmp(s->paths[i] + len - n, suffix))
			return true;
	}
	return false;
}

static void remove_tree(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_discover_kernel_layout(void **state)
{
	struct fixture *fx = *state;
	char root[] = "/tmp/test_su_match.XXXXXX";
	char linux_dir[128], out_dir[128], elf[160];
	const char *dirs[1];
	uint32_t k, m, o, d, u, fork, slab, ext, dump, lost;

	assert_non_null(mkdtemp(root));
	snprintf(linux_dir, sizeof(linux_dir), "%s/linux", root);
	snprintf(out_dir, sizeof(out_dir), "%s/out", root);
	snprintf(elf, sizeof(elf), "%s/vmlinux", linux_dir);
	make_dirs(root, "linux/kernel");
	make_dirs(root, "linux/mm");
	make_dirs(root, "out/drivers/net");
	make_dirs(root, "out/drivers/usb");
	write_file(root, "linux/kernel/fork.su", "kernel/fork.c:30:1:copy\t40\tstatic\n");
	write_file(root, "linux/mm/slab.su", "mm/slab.c:7:1:kmalloc\t24\tstatic\n");
	write_file(root, "linux/vmlinux-dump.su", "dump.c:2:5:dump\t8\tstatic\n");
	/* an out-of-tree object directory, with a decoy of the same name */
	write_file(root, "out/drivers/net/ext.su", "ext.c:5:1:ext\t16\tstatic\n");
	write_file(root, "out/drivers/usb/ext.su", "ext.c:5:1:ext\t99\tstatic\n");

	k = add_cu(fx, linux_dir, "kernel/fork.c");
	m = add_cu(fx, linux_dir, "./mm/slab.c");
	o = add_cu(fx, "/nowhere/src/drivers/net", "ext.c");
	d = add_cu(fx, "/nowhere", "dump.c");
	u = add_cu(fx, linux_dir, "kernel/missing.c");	/* no .su: not an error */
	fork = add_fn(fx, k, "copy", "copy", "kernel/fork.c", 30, 1);
	slab = add_fn(fx, m, "kmalloc", "kmalloc", "mm/slab.c", 7, 1);
	ext = add_fn(fx, o, "ext", "ext", "ext.c", 5, 1);
	dump = add_fn(fx, d, "dump", "dump", "dump.c", 2, 5);
	lost = add_fn(fx, u, "lost", "lost", "kernel/missing.c", 1, 1);
	dirs[0] = out_dir;
	assert_int_equal(discover(fx, elf, dirs, 1), 0);
	assert_int_equal(fx->set.npaths, 4);
	assert_true(has_path(&fx->set, "/linux/kernel/fork.su"));
	assert_true(has_path(&fx->set, "/linux/mm/slab.su"));
	assert_true(has_path(&fx->set, "/out/drivers/net/ext.su"));
	assert_true(has_path(&fx->set, "/linux/vmlinux-dump.su"));
	/* discovery twice reads nothing twice */
	assert_int_equal(discover(fx, elf, dirs, 1), 0);
	assert_int_equal(fx->set.npaths, 4);
	match(fx);
	assert_frame(fx, fork, 40, SP_QUAL_STATIC);
	assert_frame(fx, slab, 24, SP_QUAL_STATIC);
	assert_frame(fx, ext, 16, SP_QUAL_STATIC);
	assert_frame(fx, dump, 8, SP_QUAL_STATIC);
	assert_no_frame(fx, lost);
	assert_int_equal(fx->g.su_files, 4);
	assert_int_equal(fx->g.su_matched, 4);
	/* a --su-dir that does not exist is an error */
	dirs[0] = "/nonexistent/out";
	assert_int_equal(discover(fx, elf, dirs, 1), -1);
	assert_string_equal(fx->err.msg,
			    "cannot read '/nonexistent/out': No such file or directory");
	remove_tree(root);
}

/* CMake compiles src/a.c into CMakeFiles/prog.dir/src/a.c.o, so GCC
 * writes a.c.su there; another target's tools/a.c.su shares less of the
 * source's path and is not read. */
static void test_discover_cmake_layout(void **state)
{
	struct fixture *fx = *state;
	char root[] = "/tmp/test_su_match.XXXXXX";
	char src[128], build[128], elf[160];
	const char *dirs[1];
	uint32_t cu, f;

	assert_non_null(mkdtemp(root));
	snprintf(src, sizeof(src), "%s/proj/src/a.c", root);
	snprintf(build, sizeof(build), "%s/build", root);
	snprintf(elf, sizeof(elf), "%s/prog", build);
	make_dirs(root, "build/CMakeFiles/prog.dir/src");
	make_dirs(root, "build/CMakeFiles/other.dir/tools");
	write_file(root, "build/CMakeFiles/prog.dir/src/a.c.su", "a.c:3:5:f\t48\tstatic\n");
	write_file(root, "build/CMakeFiles/other.dir/tools/a.c.su", "a.c:3:5:f\t99\tstatic\n");
	cu = add_cu(fx, build, src);
	f = add_fn(fx, cu, "f", "f", src, 3, 5);
	dirs[0] = build;
	assert_int_equal(discover(fx, elf, dirs, 1), 0);
	assert_int_equal(fx->set.npaths, 1);
	assert_true(has_path(&fx->set, "/prog.dir/src/a.c.su"));
	match(fx);
	assert_frame(fx, f, 48, SP_QUAL_STATIC);
	remove_tree(root);
}

static void test_discover_lto_beside_elf(void **state)
{
	struct fixture *fx = *state;
	char root[] = "/tmp/test_su_match.XXXXXX";
	char elf[128];
	uint32_t cu, f;

	assert_non_null(mkdtemp(root));
	snprintf(elf, sizeof(elf), "%s/prog", root);
	write_file(root, "prog.ltrans0.ltrans.su", "a.c:3:5:f\t48\tstatic\n");
	write_file(root, "other.ltrans0.ltrans.su", "a.c:3:5:f\t99\tstatic\n");
	cu = add_cu(fx, "/gone", "a.c");
	f = add_fn(fx, cu, "f", "f", "a.c", 3, 5);
	assert_int_equal(discover(fx, elf, NULL, 0), 0);
	assert_int_equal(fx->set.npaths, 1);
	match(fx);
	assert_frame(fx, f, 48, SP_QUAL_STATIC);
	remove_tree(root);
}

/* Each image's compile units are looked for beside that image: a .su
 * beside the program for a module's source is not the module's. */
static void test_discover_each_image_beside_itself(void **state)
{
	struct fixture *fx = *state;
	char root[] = "/tmp/test_su_match.XXXXXX";
	char prog[128], mod[128];
	struct su_image imgs[2];
	uint32_t pcu, mcu, p, m;

	assert_non_null(mkdtemp(root));
	snprintf(prog, sizeof(prog), "%s/a/prog", root);
	snprintf(mod, sizeof(mod), "%s/b/mod.ko", root);
	make_dirs(root, "a");
	make_dirs(root, "b");
	write_file(root, "a/p.su", "p.c:1:5:p\t32\tstatic\n");
	write_file(root, "a/m.su", "m.c:2:5:m\t999\tstatic\n");
	write_file(root, "b/m.su", "m.c:2:5:m\t48\tstatic\n");
	pcu = add_cu(fx, "/gone", "p.c");
	mcu = add_cu(fx, "/gone", "m.c");
	p = add_fn(fx, pcu, "p", "p", "p.c", 1, 5);
	m = add_fn(fx, mcu, "m", "m", "m.c", 2, 5);
	imgs[0] = (struct su_image){ prog, pcu, 1 };
	imgs[1] = (struct su_image){ mod, mcu, 1 };
	assert_int_equal(su_discover(&fx->set, &fx->g, imgs, 2, NULL, 0, false, NULL, NULL,
				     &fx->err), 0);
	assert_int_equal(fx->set.npaths, 2);
	match(fx);
	assert_frame(fx, p, 32, SP_QUAL_STATIC);
	assert_frame(fx, m, 48, SP_QUAL_STATIC);
	remove_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_name_statics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_moved_tree_longest_suffix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clones_share_location, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numbered_clone_parts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_inline_in_two_units, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unlinked_program_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concatenated_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_built_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_build_of_source_loses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_basename_in_one_unit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_copy_loses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lto_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clang_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only_functions_with_code, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_su_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover_kernel_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmake_su_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover_cmake_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover_lto_beside_elf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discover_each_image_beside_itself, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
