/* size.h - parse byte counts given on the command line. */
#ifndef SP_SIZE_H
#define SP_SIZE_H

#include <stdint.h>

/*
 * "4096", "4K"/"4k", "1M", "1G" (binary units: K = 1024).  Returns 0, or
 * -1 for anything else: empty, signs, spaces, junk, overflow.
 */
int sp_parse_size(const char *s, uint64_t *out);

#endif
