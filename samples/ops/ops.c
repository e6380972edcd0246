/*
 * ops: the kinds of indirect call --indirect=types resolves, each with
 * targets one can name from this source alone:
 *
 *	run_handler	handlers[i](x): the table's three functions (table)
 *	shape_area	s->ops->area(): the area members of square_ops and
 *			circle_ops, not their perimeters (field)
 *	device_read	dev->ops.read(), dev->ops.start(): what uart_setup and
 *			spi_setup store there (field, drivers.c)
 *	apply		fn(x), a parameter: what main passes, cb_square or
 *			cb_double (argument)
 *	tick		t->fire(t), stored by timer_arm from its parameter: what
 *			main passes timer_arm, on_tick (field, an argument stored)
 *	log_message	log_hook(): its initial value and what main stores
 *			(table)
 *
 * Each function keeps a volatile buffer of its own size, so that the
 * worst path says which target was taken.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ops.h"

#define KEEP __attribute__((noinline))

/* ---- a table of handlers ---- */

static KEEP int h_add(int x)
{
	volatile char buf[112];

	buf[0] = (char)x;
	return buf[0] + 1;
}

static KEEP int h_sub(int x)
{
	volatile char buf[176];

	buf[0] = (char)x;
	return buf[0] - 1;
}

static KEEP int h_mul(int x)
{
	volatile char buf[144];

	buf[0] = (char)x;
	return buf[0] * 2;
}

static int (*const handlers[])(int) = { h_add, h_sub, h_mul };

KEEP int run_handler(unsigned i, int x)
{
	volatile char buf[24];

	buf[0] = (char)x;
	return handlers[i % 3](x) + buf[0];
}

/* ---- operations in data ---- */

static KEEP int sq_area(int size)
{
	volatile char buf[208];

	buf[0] = (char)size;
	return buf[0] * buf[0];
}

static KEEP int sq_perimeter(int size)
{
	volatile char buf[900];

	buf[0] = (char)size;
	buf[899] = 4;
	return buf[0] * buf[899];
}

static KEEP int circle_area(int size)
{
	volatile char buf[336];

	buf[0] = (char)size;
	return buf[0] * buf[0] * 3;
}

static KEEP int circle_perimeter(int size)
{
	volatile char buf[960];

	buf[0] = (char)size;
	buf[959] = 6;
	return buf[0] * buf[959];
}

static const struct shape_ops square_ops = { sq_area, sq_perimeter };
static const struct shape_ops circle_ops = { circle_area, circle_perimeter };
const struct shape square = { &square_ops, 3 }, circle = { &circle_ops, 2 };

KEEP int shape_area(const struct shape *s)
{
	volatile char buf[32];

	buf[0] = (char)s->size;
	return s->ops->area(s->size) + buf[0];
}

/* ---- a callback handed down ---- */

static KEEP int cb_double(int x)
{
	volatile char buf[80];

	buf[0] = (char)x;
	return buf[0] * 2;
}

static KEEP int cb_square(int x)
{
	volatile char buf[96];

	buf[0] = (char)x;
	return buf[0] * buf[0];
}

KEEP int apply(int (*fn)(int), int x)
{
	volatile char buf[16];

	buf[0] = (char)x;
	return fn(x) + buf[0];
}

/* ---- a timer's callback, stored from a parameter ---- */

static KEEP void on_tick(struct timer *t)
{
	volatile char buf[64];

	buf[0] = (char)t->count;
	t->count += buf[0] + 1;
}

KEEP void tick(struct timer *t)
{
	volatile char buf[8];

	buf[0] = (char)t->count;
	t->fire(t);
}

/* ---- a global hook, set at run time ---- */

static KEEP void log_quiet(const char *msg)
{
	volatile char buf[128];

	buf[0] = msg[0];
}

static KEEP void log_loud(const char *msg)
{
	volatile char buf[720];

	buf[0] = msg[0];
	buf[719] = msg[0];
	fputs(msg, stderr);
}

static void (*log_hook)(const char *msg) = log_quiet;

KEEP void log_message(const char *msg)
{
	volatile char buf[8];

	buf[0] = msg[0];
	log_hook(msg);
}

int main(int argc, char **argv)
{
	struct device uart, spi;
	struct timer t;
	int x = argc > 1 ? atoi(argv[1]) : 0, r = 0;

	uart_setup(&uart);
	spi_setup(&spi);
	timer_arm(&t, on_tick);
	if (x > 100)
		log_hook = log_loud;
	r += run_handler((unsigned)x, x);
	r += shape_area(x & 1 ? &circle : &square);
	r += device_read(x & 2 ? &spi : &uart, x);
	r += apply(x & 4 ? cb_square : cb_double, x);
	tick(&t);
	log_message("ops\n");
	printf("ops: %d %d\n", r, t.count);
	return 0;
}
