#include <ctype.h>
#include <string.h>

#include "calc.h"

void lex_init(struct lexer *lx, const char *src)
{
	lx->src = lx->pos = src;
	lex_next(lx);
}

static __attribute__((noinline)) const char *lex_number(struct token *t, const char *s)
{
	long v = 0;

	while (isdigit((unsigned char)*s))
		v = v * 10 + (*s++ - '0');
	t->kind = TOK_NUM;
	t->num = v;
	return s;
}

static __attribute__((noinline)) const char *lex_ident(struct token *t, const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	t->kind = n < sizeof(t->text) ? TOK_IDENT : TOK_BAD;
	if (n >= sizeof(t->text))
		n = sizeof(t->text) - 1;
	memcpy(t->text, s, n);
	t->text[n] = '\0';
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return s;
}

void lex_next(struct lexer *lx)
{
	const char *s = lx->pos;
	struct token *t = &lx->tok;

	while (isspace((unsigned char)*s))
		s++;
	t->op = *s;
	if (!*s)
		t->kind = TOK_END;
	else if (isdigit((unsigned char)*s))
		s = lex_number(t, s);
	else if (isalpha((unsigned char)*s) || *s == '_')
		s = lex_ident(t, s);
	else {
		t->kind = strchr("+-*/%", *s) ? TOK_OP : *s == '(' ? TOK_LPAREN :
			  *s == ')' ? TOK_RPAREN : *s == ',' ? TOK_COMMA : TOK_BAD;
		s++;
	}
	lx->pos = s;
}
