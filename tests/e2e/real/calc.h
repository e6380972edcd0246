#ifndef CALC_H
#define CALC_H
/*
 * calc - a small expression evaluator, the "somewhat real" program of
 * tests/e2e/t0700-o2-real.sh: a lexer, a recursive-descent parser (its
 * functions recurse through parse_expr), an evaluator calling builtin
 * functions through a table of pointers, and error reporting by varargs.
 */
#include <stddef.h>

enum tok_kind { TOK_END, TOK_NUM, TOK_IDENT, TOK_OP, TOK_LPAREN, TOK_RPAREN,
		TOK_COMMA, TOK_BAD };

struct token {
	enum tok_kind kind;
	long num;
	char text[32];
	char op;
};

struct lexer {
	const char *src, *pos;
	struct token tok;
};

enum node_kind { NODE_NUM, NODE_NEG, NODE_BINARY, NODE_CALL };

#define MAX_ARGS 4

struct node {
	enum node_kind kind;
	long num;
	char op;
	const char *func;
	int nargs;
	struct node *kid[MAX_ARGS];
};

#define MAX_NODES 256

struct parser {
	struct lexer lex;
	struct node nodes[MAX_NODES];
	int nnodes;
	char error[128];
};

typedef long (*builtin_fn)(const long *args, int nargs);

struct builtin {
	const char *name;
	int nargs;
	builtin_fn fn;
};

/* lexer.c */
void lex_init(struct lexer *lx, const char *src);
void lex_next(struct lexer *lx);

/* parser.c */
struct node *parse(struct parser *p, const char *src);

/* eval.c */
int eval(const struct node *n, long *out, char *err, size_t errsize);

/* builtins.c */
const struct builtin *builtin_find(const char *name);

/* error.c */
void calc_error(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
