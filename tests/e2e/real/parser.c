#include <string.h>

#include "calc.h"

static struct node *parse_expr(struct parser *p);

static __attribute__((noinline)) struct node *node_new(struct parser *p, enum node_kind kind)
{
	struct node *n;

	if (p->nnodes >= MAX_NODES) {
		calc_error(p->error, sizeof(p->error), "expression too long");
		return NULL;
	}
	n = &p->nodes[p->nnodes++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return n;
}

static __attribute__((noinline)) struct node *parse_call(struct parser *p, const char *name)
{
	const struct builtin *b = builtin_find(name);
	struct node *n;

	if (!b) {
		calc_error(p->error, sizeof(p->error), "unknown function '%s'", name);
		return NULL;
	}
	n = node_new(p, NODE_CALL);
	if (!n)
		return NULL;
	n->func = b->name;
	lex_next(&p->lex);			/* the '(' */
	while (p->lex.tok.kind != TOK_RPAREN) {
		if (n->nargs == MAX_ARGS || !(n->kid[n->nargs++] = parse_expr(p)))
			return NULL;
		if (p->lex.tok.kind == TOK_COMMA)
			lex_next(&p->lex);
		else if (p->lex.tok.kind != TOK_RPAREN)
			return NULL;
	}
	lex_next(&p->lex);
	return n;
}

static __attribute__((noinline)) struct node *parse_primary(struct parser *p)
{
	struct token t = p->lex.tok;
	struct node *n;

	switch (t.kind) {
	case TOK_NUM:
		if (!(n = node_new(p, NODE_NUM)))
			return NULL;
		n->num = t.num;
		lex_next(&p->lex);
		return n;
	case TOK_IDENT:
		lex_next(&p->lex);
		if (p->lex.tok.kind != TOK_LPAREN)
			break;
		return parse_call(p, t.text);
	case TOK_LPAREN:
		lex_next(&p->lex);
		n = parse_expr(p);
		if (!n || p->lex.tok.kind != TOK_RPAREN)
			break;
		lex_next(&p->lex);
		return n;
	default:
		break;
	}
	if (!p->error[0])
		calc_error(p->error, sizeof(p->error), "syntax error near '%c'", t.op);
	return NULL;
}

static __attribute__((noinline)) struct node *parse_unary(struct parser *p)
{
	struct node *n;

	if (p->lex.tok.kind == TOK_OP && p->lex.tok.op == '-') {
		lex_next(&p->lex);
		if (!(n = node_new(p, NODE_NEG)) || !(n->kid[0] = parse_unary(p)))
			return NULL;
		return n;
	}
	return parse_primary(p);
}

static __attribute__((noinline)) struct node *binary(struct parser *p, char op,
						      struct node *l, struct node *r)
{
	struct node *n;

	if (!l || !r || !(n = node_new(p, NODE_BINARY)))
		return NULL;
	n->op = op;
	n->kid[0] = l;
	n->kid[1] = r;
	return n;
}

static __attribute__((noinline)) struct node *parse_term(struct parser *p)
{
	struct node *n = parse_unary(p);

	while (n && p->lex.tok.kind == TOK_OP && strchr("*/%", p->lex.tok.op)) {
		char op = p->lex.tok.op;

		lex_next(&p->lex);
		n = binary(p, op, n, parse_unary(p));
	}
	return n;
}

static __attribute__((noinline)) struct node *parse_expr(struct parser *p)
{
	struct node *n = parse_term(p);

	while (n && p->lex.tok.kind == TOK_OP && strchr("+-", p->lex.tok.op)) {
		char op = p->lex.tok.op;

		lex_next(&p->lex);
		n = binary(p, op, n, parse_term(p));
	}
	return n;
}

struct node *parse(struct parser *p, const char *src)
{
	struct node *n;

	p->nnodes = 0;
	p->error[0] = '\0';
	lex_init(&p->lex, src);
	n = parse_expr(p);
	if (n && p->lex.tok.kind != TOK_END) {
		calc_error(p->error, sizeof(p->error), "trailing input");
		return NULL;
	}
	return n;
}
