/*
 * fromback.c - a cycle whose 'from' chain runs through CALLEE itself,
 * for 'ignore FUNC CALLEE from CALLER CALLER2' with CALLER2 = CALLEE
 * (tests/e2e/t1147-linux-drivers-links.sh), after the kernel's
 * __xenbus_switch_state() -> xenbus_switch_fatal() (drivers/xen/xenbus/
 * xenbus_client.c):
 *
 *   switch_state  writes a state; on failure reports it with fatal(),
 *                 passing its own depth
 *   fatal         reports, and at depth 0 switches to Closing, depth 1
 *
 * switch_state -> fatal -> switch_state is a cycle of the call graph,
 * but the fatal() below that second switch_state() has depth 1 and calls
 * nothing: 'ignore fatal switch_state from switch_state fatal'.  The
 * program takes that path (main -> switch_state -> fatal ->
 * switch_state -> fatal) and checks how many reports it made.  No library
 * calls, so every frame has a .su row; every function but the frameless
 * report() calls: no red zone.
 */
struct dev {
	volatile int state, fails, reports;
};

void switch_state(struct dev *d, int state, int depth);

__attribute__((noinline, noclone)) void report(struct dev *d)
{
	d->reports++;
}

__attribute__((noinline, noclone)) void fatal(struct dev *d, int depth)
{
	volatile char msg[72];

	msg[0] = (char)depth;
	report(d);
	if (!depth)
		switch_state(d, 5, 1);
	msg[1] = msg[0];
}

__attribute__((noinline, noclone)) void switch_state(struct dev *d, int state, int depth)
{
	volatile char xbt[40];

	xbt[0] = (char)state;
	if (d->fails)
		fatal(d, depth);
	else
		d->state = xbt[0];
	xbt[1] = xbt[0];
}

int main(void)
{
	struct dev d = { 0, 1, 0 };

	switch_state(&d, 4, 0);
	return d.reports != 2;
}
