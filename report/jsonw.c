/* jsonw.c - see jsonw.h */
#include "report/jsonw.h"

#include <string.h>

#include "stackprof.h"

/* printed as "\u0001stackprof\u0001": json-c escapes the control bytes */
#define MARKER "\001stackprof\001"
#define MARKER_TEXT "\"\\u0001stackprof\\u0001\""

const char *sp_json_via(uint8_t flags)
{
	if (flags & SP_EDGE_F_ASSUMED)
		return "assumed";
	if (flags & SP_EDGE_F_ANNOTATED)
		return "annotated";
	if (flags & SP_EDGE_F_EXCEPTION)
		return "exception";
	return NULL;
}

const char *sp_json_resolved_by(uint8_t flags, uint8_t how)
{
	return flags & SP_EDGE_F_ASSUMED ? sp_resolved_name((enum sp_resolved)how) : NULL;
}

json_object *sp_jsonw_marker(void)
{
	return json_object_new_string(MARKER);
}

/* The next marker in s: an array's element printed alone on its line
 * (a string that merely holds the same text is a member's value, after
 * its key, or one of several elements, before a comma). */
static const char *next_marker(const char *s, const char **line)
{
	const char *at;

	for (; (at = strstr(s, MARKER_TEXT)); s = at + 1) {
		const char *start = at, *end = at + strlen(MARKER_TEXT);

		while (start > s && start[-1] == ' ')
			start--;
		if ((start == s || start[-1] == '\n') && *end == '\n') {
			*line = start;
			return at;
		}
	}
	return NULL;
}

/* Print up to the next marker's line; the marker's indentation is the
 * elements'.  Without one, nothing is printed and elements are dropped. */
static void to_marker(struct sp_jsonw *w)
{
	const char *line, *at = next_marker(w->rest, &line);
	size_t n;

	w->count = 0;
	w->open = at != NULL;
	if (!at)
		return;
	n = (size_t)(at - line);
	if (n >= sizeof(w->indent))
		n = sizeof(w->indent) - 1;
	memcpy(w->indent, line, n);
	w->indent[n] = '\0';
	fwrite(w->rest, 1, (size_t)(line - w->rest), w->out);
	w->rest = at + strlen(MARKER_TEXT);
}

void sp_jsonw_begin(struct sp_jsonw *w, json_object *root, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->root = root;
	w->out = out;
	w->text = w->rest = json_object_to_json_string_ext(root, SP_JSONW_PRETTY);
	to_marker(w);
}

void sp_jsonw_add(struct sp_jsonw *w, json_object *element)
{
	if (w->open) {
		if (w->count++)
			fputs(",\n", w->out);
		fputs(w->indent, w->out);
		fputs(json_object_to_json_string_ext(element, SP_JSONW_LINE), w->out);
	}
	json_object_put(element);
}

/* The end of the current array: without elements its marker's line
 * goes, newline and all. */
static void close_array(struct sp_jsonw *w)
{
	if (w->open && !w->count && *w->rest == '\n')
		w->rest++;
}

void sp_jsonw_next(struct sp_jsonw *w)
{
	close_array(w);
	to_marker(w);
}

void sp_jsonw_end(struct sp_jsonw *w)
{
	close_array(w);
	fputs(w->rest, w->out);
	fputc('\n', w->out);
	json_object_put(w->root);
}
