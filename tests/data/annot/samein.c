/*
 * samein.c - contexts that differ in counts but not in what their
 * region sees, for the once/nest solver's shared solves
 * (tests/e2e/t1145-nest-shared-solves.sh): with 'once y', 'once z' and
 * 'nest w 3', y's contexts keep w's count (y reaches w through z), but
 * below z y's one call, into z, is cut whatever w's count: every one of
 * them gives y's region the same inputs.  Each has a frame of its own
 * size; which call it makes is decided at run time by a volatile, so
 * every call is in the call graph and none is a tail call.  No library
 * calls: every frame has a .su row.
 */
static volatile int pick = -1;	/* never a call's number here */

int y(int d), z(int d), w(int d);

__attribute__((noinline)) int y(int d)
{
	volatile char buf[200];

	buf[0] = (char)d;
	if (pick == 0)
		buf[1] = (char)z(d + 1);
	return buf[0];
}

__attribute__((noinline)) int z(int d)
{
	volatile char buf[40];

	buf[0] = (char)d;
	if (pick == 1)
		buf[1] = (char)w(d + 1);
	if (pick == 2)
		buf[1] = (char)y(d + 1);
	return buf[0];
}

__attribute__((noinline)) int w(int d)
{
	volatile char buf[72];

	buf[0] = (char)d;
	if (pick == 3)
		buf[1] = (char)w(d + 1);
	if (pick == 4)
		buf[1] = (char)z(d + 1);
	return buf[0];
}

int main(void)
{
	return y(0) + w(0);
}
