#include "calc.h"

static int eval_node(const struct node *n, long *out, char *err, size_t errsize);

static __attribute__((noinline)) int eval_binary(const struct node *n, long *out,
						  char *err, size_t errsize)
{
	long l, r;

	if (eval_node(n->kid[0], &l, err, errsize) || eval_node(n->kid[1], &r, err, errsize))
		return -1;
	switch (n->op) {
	case '+': *out = l + r; return 0;
	case '-': *out = l - r; return 0;
	case '*': *out = l * r; return 0;
	}
	if (r == 0) {
		calc_error(err, errsize, "division by zero");
		return -1;
	}
	*out = n->op == '/' ? l / r : l % r;
	return 0;
}

static __attribute__((noinline)) int eval_call(const struct node *n, long *out,
						char *err, size_t errsize)
{
	const struct builtin *b = builtin_find(n->func);
	long args[MAX_ARGS];
	int i;

	if (!b || (b->nargs >= 0 && b->nargs != n->nargs)) {
		calc_error(err, errsize, "%s: wrong number of arguments", n->func);
		return -1;
	}
	for (i = 0; i < n->nargs; i++)
		if (eval_node(n->kid[i], &args[i], err, errsize))
			return -1;
	*out = b->fn(args, n->nargs);		/* through the table */
	return 0;
}

static int eval_node(const struct node *n, long *out, char *err, size_t errsize)
{
	switch (n->kind) {
	case NODE_NUM:
		*out = n->num;
		return 0;
	case NODE_NEG:
		if (eval_node(n->kid[0], out, err, errsize))
			return -1;
		*out = -*out;
		return 0;
	case NODE_BINARY:
		return eval_binary(n, out, err, errsize);
	case NODE_CALL:
		return eval_call(n, out, err, errsize);
	}
	return -1;
}

int eval(const struct node *n, long *out, char *err, size_t errsize)
{
	err[0] = '\0';
	return eval_node(n, out, err, errsize);
}
