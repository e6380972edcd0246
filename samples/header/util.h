#ifndef UTIL_H
#define UTIL_H
/*
 * A static inline function that GCC keeps out of line (as it does for
 * big ones): each file that calls it gets its own copy, with the same
 * name, file and line.  noinline on an inline function draws
 * -Wattributes, hence the pragma.
 */
extern int util_sink(int v);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
static inline __attribute__((noinline)) int clamp_add(int v, int d)
{
	volatile char buf[40];

	buf[0] = (char)d;
	v = util_sink(v + buf[0]);
	return v > 100 ? 100 : v;
}
#pragma GCC diagnostic pop

#endif
