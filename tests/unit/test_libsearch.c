/* Unit tests of elf/dynamic.c's library search: DT_RUNPATH with $ORIGIN,
 * DT_RPATH, LD_LIBRARY_PATH, /etc/ld.so.cache (glibc's format), the
 * default directories, a library of another machine passed over, all
 * under a sysroot. */
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

#include "elf/dynamic.h"

static char root[256];

static void mkdirs(const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* An ELF header of the machine: all lib_fits reads. */
static void elf_file(const char *rel, uint16_t machine)
{
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1 };
	char path[512];
	FILE *fp;

	h[18] = (unsigned char)machine;
	h[19] = (unsigned char)(machine >> 8);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	fwrite(h, 1, sizeof(h), fp);
	fclose(fp);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* glibc-ld.so.cache1.1 with one entry, key -> value */
static void cache_file(const char *key, const char *value)
{
	unsigned char buf[256] = { 0 };
	size_t strings = 48 + 24, klen = strlen(key) + 1, vlen = strlen(value) + 1;
	char path[512];
	FILE *fp;

	memcpy(buf, "glibc-ld.so.cache1.1", 20);
	put32(buf + 20, 1);
	put32(buf + 24, (uint32_t)(klen + vlen));
	put32(buf + 48, 0x0303);
	put32(buf + 52, (uint32_t)strings);
	put32(buf + 56, (uint32_t)(strings + klen));
	memcpy(buf + strings, key, klen);
	memcpy(buf + strings + klen, value, vlen);
	snprintf(path, sizeof(path), "%s/etc/ld.so.cache", root);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	fwrite(buf, 1, strings + klen + vlen, fp);
	fclose(fp);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_libsearch.%d", (int)getpid());
	mkdir(root, 0755);
	mkdirs("app/bin");
	mkdirs("app/lib");
	mkdirs("rp");
	mkdirs("etc");
	mkdirs("opt/y");
	mkdirs("lib/x86_64-linux-gnu");
	elf_file("app/lib/libx.so", EM_X86_64);
	elf_file("rp/libw.so", EM_AARCH64);	/* another machine's */
	elf_file("lib/x86_64-linux-gnu/libw.so", EM_X86_64);
	elf_file("opt/y/liby.so.1", EM_X86_64);
	elf_file("lib/x86_64-linux-gnu/libz.so.1", EM_X86_64);
	cache_file("liby.so.1", "/opt/y/liby.so.1");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

/* sp_lib_find's answer, less the root, or "" when none */
static const char *library_path;	/* LD_LIBRARY_PATH of the next find() */

static const char *find(const char *name, const char *rpath, const char *runpath)
{
	static char out[512];
	struct sp_lib_search s = { .sysroot = root, .machine = EM_X86_64,
				   .library_path = library_path };
	struct sp_elf_dynamic d = { .rpath = (char *)rpath, .runpath = (char *)runpath };
	char by[512];
	char *path;

	snprintf(by, sizeof(by), "%s/app/bin/prog", root);
	path = sp_lib_find(&s, name, &d, by);
	snprintf(out, sizeof(out), "%s", path ? path + strlen(root) : "");
	free(path);
	sp_lib_search_release(&s);
	return out;
}

static void test_runpath_origin(void **state)
{
	(void)state;
	assert_string_equal(find("libx.so", NULL, "/nowhere:$ORIGIN/../lib"),
			    "/app/bin/../lib/libx.so");
	/* DT_RPATH counts only without DT_RUNPATH */
	assert_string_equal(find("libx.so", "${ORIGIN}/../lib", NULL), "/app/bin/../lib/libx.so");
	assert_string_equal(find("libx.so", "${ORIGIN}/../lib", "/rp"), "");
}

static void test_cache_and_default_dirs(void **state)
{
	(void)state;
	assert_string_equal(find("liby.so.1", NULL, NULL), "/opt/y/liby.so.1");
	assert_string_equal(find("libz.so.1", NULL, NULL), "/lib/x86_64-linux-gnu/libz.so.1");
	/* the runpath's libw.so is AArch64's: passed over */
	assert_string_equal(find("libw.so", NULL, "/rp"), "/lib/x86_64-linux-gnu/libw.so");
	assert_string_equal(find("libnone.so", NULL, "/rp"), "");
}

/* LD_LIBRARY_PATH comes after DT_RPATH and before DT_RUNPATH, the
 * cache and the default directories; another machine's library in it
 * is passed over */
static void test_library_path(void **state)
{
	(void)state;
	library_path = "/nowhere::/opt/y";
	assert_string_equal(find("liby.so.1", NULL, NULL), "/opt/y/liby.so.1");
	library_path = "/rp:/app/lib";
	assert_string_equal(find("libx.so", NULL, "/nowhere"), "/app/lib/libx.so");
	assert_string_equal(find("libw.so", NULL, NULL), "/lib/x86_64-linux-gnu/libw.so");
	library_path = "/lib/x86_64-linux-gnu";
	assert_string_equal(find("libx.so", NULL, "$ORIGIN/../lib"),
			    "/app/bin/../lib/libx.so");	/* not there: the runpath */
	mkdirs("llp");
	elf_file("llp/libx.so", EM_X86_64);
	library_path = "/llp";
	assert_string_equal(find("libx.so", NULL, "$ORIGIN/../lib"), "/llp/libx.so");
	assert_string_equal(find("libx.so", "$ORIGIN/../lib", NULL), "/app/bin/../lib/libx.so");
	library_path = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runpath_origin),
		cmocka_unit_test(test_cache_and_default_dirs),
		cmocka_unit_test(test_library_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
