/*
 * jsonw.h - writing large JSON documents with json-c.
 *
 * A kernel's report is tens of thousands of objects: as one json-c tree
 * it costs gigabytes and one huge string.  So the envelope is a tree
 * whose large arrays each hold only a marker; the tree is printed up to
 * the first marker, then each element of that array is built, printed on
 * a line of its own and freed; sp_jsonw_next() goes on to the next
 * marker, sp_jsonw_end() prints the rest.  json-c prints every byte;
 * the helper only places the elements.
 *
 *	struct sp_jsonw w;
 *	json_object_array_add(arr, sp_jsonw_marker());	// one per array
 *	sp_jsonw_begin(&w, root, out);			// root is put at the end
 *	while (...) sp_jsonw_add(&w, element);		// element is put
 *	sp_jsonw_next(&w);				// the next marked array
 *	...
 *	sp_jsonw_end(&w);
 */
#ifndef SP_REPORT_JSONW_H
#define SP_REPORT_JSONW_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The envelope as people read it; each element on one line, compact. */
#define SP_JSONW_PRETTY (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
#define SP_JSONW_LINE (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

struct sp_jsonw {
	json_object *root;
	const char *text;	/* root printed */
	const char *rest;	/* what is not printed yet */
	char indent[64];	/* the current marker's indentation */
	bool open;		/* at a marker: elements are printed */
	size_t count;		/* elements in the current array */
	FILE *out;
};

/* NULL is JSON null */
static inline json_object *sp_json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* o[key] = v, for a key that is a string constant and not in o yet:
 * json-c neither copies it nor looks for it. */
static inline void sp_json_put(json_object *o, const char *key, json_object *v)
{
	json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW |
				  JSON_C_OBJECT_KEY_IS_CONSTANT);
}

/* How a call was found, for "via": null for one the binary shows. */
const char *sp_json_via(uint8_t flags);
/* How an assumed call's targets were found, for "resolved_by", or null. */
const char *sp_json_resolved_by(uint8_t flags, uint8_t how);

/* The placeholder for an array's elements: its only element. */
json_object *sp_jsonw_marker(void);
void sp_jsonw_begin(struct sp_jsonw *w, json_object *root, FILE *out);
void sp_jsonw_add(struct sp_jsonw *w, json_object *element);
void sp_jsonw_next(struct sp_jsonw *w);
void sp_jsonw_end(struct sp_jsonw *w);

#endif
