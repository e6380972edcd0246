/* Unit tests of indirect/data.c's words: a 64-bit little-endian image's
 * (read in one load), a big-endian one's and a 32-bit one's (byte by
 * byte), a relocation's value over the file's bytes, and the words
 * ind_data_words goes through (a relocation's among the file's, those
 * of a value in the range asked for only). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "indirect/internal.h"

static const unsigned char bytes[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88,
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0xf8,
};

static struct ind_section sec = { .addr = 0x1000, .size = 16, .bytes = bytes };

static uint64_t word_at(const struct ind_data *d, uint64_t addr)
{
	uint64_t v = 0;

	assert_true(ind_data_word(d, addr, &v));
	return v;
}

static void test_word_orders(void **state)
{
	struct ind_data le = { .secs = &sec, .nsecs = 1, .word = 8 };
	struct ind_data be = le, le32 = le;
	uint64_t v;

	(void)state;
	be.msb = true;
	le32.word = 4;
	assert_true(word_at(&le, 0x1000) == 0x8807060504030201ULL);
	assert_true(word_at(&le, 0x1008) == 0xf877665544332211ULL);
	/* unaligned: the bytes where it starts */
	assert_true(word_at(&le, 0x1001) == 0x1188070605040302ULL);
	assert_true(word_at(&be, 0x1000) == 0x0102030405060788ULL);
	assert_true(word_at(&le32, 0x1004) == 0x88070605ULL);
	/* past the section's end, or outside it: no word */
	assert_false(ind_data_word(&le, 0x1009, &v));
	assert_false(ind_data_word(&le, 0x0ff8, &v));
	assert_true(word_at(&le32, 0x100c) == 0xf8776655ULL);
}

static void test_reloc_wins(void **state)
{
	struct ind_reloc rel = { .addr = 0x1008, .value = 0xffffffff81000000ULL };
	struct ind_data le = { .secs = &sec, .nsecs = 1, .relocs = &rel, .nrelocs = 1,
			       .word = 8 };

	(void)state;
	assert_true(word_at(&le, 0x1008) == 0xffffffff81000000ULL);
	assert_true(word_at(&le, 0x1000) == 0x8807060504030201ULL);
}

struct seen {
	uint64_t addr[4], value[4];
	int n;
};

static void keep(void *arg, uint64_t addr, uint64_t value)
{
	struct seen *s = arg;

	assert_true(s->n < 4);
	s->addr[s->n] = addr;
	s->value[s->n++] = value;
}

static void test_each_word(void **state)
{
	struct ind_data le = { .secs = &sec, .nsecs = 1, .word = 8 };
	struct seen s = { .n = 0 };

	(void)state;
	ind_data_words(&le, 0, 0, UINT64_MAX, keep, &s);
	assert_int_equal(s.n, 2);
	assert_true(s.addr[0] == 0x1000 && s.value[0] == 0x8807060504030201ULL);
	assert_true(s.addr[1] == 0x1008 && s.value[1] == 0xf877665544332211ULL);
	le.msb = true;
	s.n = 0;
	ind_data_words(&le, 0, 0, UINT64_MAX, keep, &s);
	assert_int_equal(s.n, 2);
	assert_true(s.value[1] == 0x11223344556677f8ULL);
}

/* A relocation inside a word (0x1004) leaves that word the file's; one
 * at a word (0x1008) gives its value; only values in [lo, hi] are seen. */
static void test_words_in_range(void **state)
{
	struct ind_reloc rel[2] = { { .addr = 0x1004, .value = 1 },
				    { .addr = 0x1008, .value = 0xffffffff81000000ULL } };
	struct ind_data le = { .secs = &sec, .nsecs = 1, .relocs = rel, .nrelocs = 2,
			       .word = 8 };
	struct seen s = { .n = 0 };

	(void)state;
	ind_data_words(&le, 0, 0, UINT64_MAX, keep, &s);
	assert_int_equal(s.n, 2);
	assert_true(s.addr[0] == 0x1000 && s.value[0] == 0x8807060504030201ULL);
	assert_true(s.addr[1] == 0x1008 && s.value[1] == 0xffffffff81000000ULL);
	s.n = 0;
	ind_data_words(&le, 0, 0xffffffff80000000ULL, UINT64_MAX, keep, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.addr[0] == 0x1008);
	s.n = 0;
	le.nrelocs = 0;
	ind_data_words(&le, 0, 0x8807060504030201ULL, 0x8807060504030201ULL, keep, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.addr[0] == 0x1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word_orders),
		cmocka_unit_test(test_reloc_wins),
		cmocka_unit_test(test_each_word),
		cmocka_unit_test(test_words_in_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
