/* jsonr.c - see jsonr.h */
#include "report/jsonr.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

int sp_jsonr_open(struct sp_jsonr *r, const char *path, struct sp_err *err)
{
	r->pos = r->len = 0;
	r->error = false;
	r->path = path;
	r->fp = fopen(path, "rb");
	if (!r->fp)
		return sp_err_set(err, "'%s': cannot read JSON: %s", path, strerror(errno));
	r->tok = json_tokener_new();
	if (!r->tok) {
		fclose(r->fp);
		r->fp = NULL;
		return sp_err_set(err, "'%s': cannot read JSON: out of memory", path);
	}
	return 0;
}

void sp_jsonr_close(struct sp_jsonr *r)
{
	if (r->tok)
		json_tokener_free(r->tok);
	if (r->fp)
		fclose(r->fp);
	r->tok = NULL;
	r->fp = NULL;
}

/* More bytes once the buffer is used up; false at the end. */
static bool fill(struct sp_jsonr *r)
{
	if (r->pos < r->len)
		return true;
	r->pos = 0;
	r->len = fread(r->buf, 1, sizeof(r->buf), r->fp);
	if (!r->len && ferror(r->fp))
		r->error = true;
	return r->len > 0;
}

int sp_jsonr_peek(struct sp_jsonr *r)
{
	while (fill(r)) {
		char c = r->buf[r->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return (unsigned char)c;
		r->pos++;
	}
	return EOF;
}

bool sp_jsonr_eat(struct sp_jsonr *r, int c)
{
	if (sp_jsonr_peek(r) != c)
		return false;
	r->pos++;
	return true;
}

static int bad(struct sp_jsonr *r, const char *why, struct sp_err *err)
{
	return sp_err_set(err, "'%s': cannot read JSON: %s", r->path, why);
}

/*
 * The tokenizer takes the buffer a piece at a time, keeping its state
 * between pieces, and says where a whole value ended.  A number at the
 * very end of the file has nothing after it to end it: a space does.
 */
int sp_jsonr_value(struct sp_jsonr *r, json_object **out, struct sp_err *err)
{
	enum json_tokener_error e;

	*out = NULL;
	json_tokener_reset(r->tok);
	if (sp_jsonr_peek(r) == EOF)
		return bad(r, r->error ? strerror(EIO) : "unexpected end of file", err);
	for (;;) {
		size_t n = r->len - r->pos;

		*out = json_tokener_parse_ex(r->tok, r->buf + r->pos,
					     n > INT_MAX ? INT_MAX : (int)n);
		e = json_tokener_get_error(r->tok);
		if (e != json_tokener_continue) {
			r->pos += json_tokener_get_parse_end(r->tok);
			break;
		}
		r->pos = r->len;
		if (!fill(r)) {
			*out = json_tokener_parse_ex(r->tok, " ", 1);
			e = json_tokener_get_error(r->tok);
			break;
		}
	}
	if (e == json_tokener_success)
		return 0;
	json_object_put(*out);
	*out = NULL;
	return bad(r, e == json_tokener_continue ? "unexpected end of file" :
		   json_tokener_error_desc(e), err);
}
