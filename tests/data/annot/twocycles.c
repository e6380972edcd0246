/*
 * twocycles.c - two cycles of once functions, one below the other
 * (tests/e2e/t1139-once-pooled-cycles.sh): a0 and a1 call each other
 * and each calls b0; b0 and b1 call each other.  Pooled, each cycle
 * has a budget of its own: a stack leaves the a cycle for good, so the
 * a functions' activations never spend the b functions' counts.  No
 * library calls, so every frame has a .su row; every function calls:
 * no red zone.  noclone keeps GCC from making copies of its own.
 */
static volatile int calls;

void a1(int n);
void b1(int n);

__attribute__((noinline, noclone)) void b0(int n)
{
	volatile char buf[16];

	buf[0] = (char)n;
	calls++;
	if (n > 0)
		b1(n - 1);
	calls += buf[0];
}

__attribute__((noinline, noclone)) void b1(int n)
{
	volatile char buf[24];

	buf[0] = (char)n;
	calls++;
	if (n > 0)
		b0(n - 1);
	calls += buf[0];
}

__attribute__((noinline, noclone)) void a0(int n)
{
	volatile char buf[200];

	buf[0] = (char)n;
	if (n > 2)
		a1(n - 1);
	else
		b0(1);
	calls += buf[0];
}

__attribute__((noinline, noclone)) void a1(int n)
{
	volatile char buf[300];

	buf[0] = (char)n;
	if (n > 2)
		a0(n - 1);
	else
		b0(1);
	calls += buf[0];
}

int main(void)
{
	/* a0 -> a1 -> b0 -> b1: each once */
	a0(3);
	return calls == 0;
}
