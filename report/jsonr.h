/*
 * jsonr.h - reading a large JSON document with json-c, value by value.
 *
 * json-c parses a whole document into one tree: two kernels' version 1
 * reports were 8.5 GB of memory for a diff that needs a few fields of
 * each function.  Here the caller walks the outer structure (an object's
 * members, an array's elements) and json-c's tokenizer parses each value
 * it wants whole, from a file read 64 KiB at a time: memory is one
 * element, whatever the file's size.
 *
 *	struct sp_jsonr r;
 *	if (sp_jsonr_open(&r, path, err)) ...
 *	if (!sp_jsonr_eat(&r, '{')) ...		// not an object
 *	while (sp_jsonr_value(&r, &key, err) == 0 && sp_jsonr_eat(&r, ':')) ...
 *	sp_jsonr_close(&r);
 */
#ifndef SP_REPORT_JSONR_H
#define SP_REPORT_JSONR_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

struct sp_jsonr {
	FILE *fp;
	const char *path;
	json_tokener *tok;
	size_t pos, len;
	bool error;		/* a read failed */
	char buf[1 << 16];
};

int sp_jsonr_open(struct sp_jsonr *r, const char *path, struct sp_err *err);
void sp_jsonr_close(struct sp_jsonr *r);
/* Past white space: the next byte (not consumed), EOF at the end. */
int sp_jsonr_peek(struct sp_jsonr *r);
/* Past white space: consume c if it comes next. */
bool sp_jsonr_eat(struct sp_jsonr *r, int c);
/* The next value, whole: *out is the caller's (NULL for JSON null).
 * Returns -1 with err set ("'PATH': cannot read JSON: ...") when what
 * comes is not a JSON value. */
int sp_jsonr_value(struct sp_jsonr *r, json_object **out, struct sp_err *err);

#endif
