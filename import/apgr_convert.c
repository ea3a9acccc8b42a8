/*
 * apgr: the conversion of one record, parsed by jansson, into a struct
 * kifu_record (INTEROP.md "apgr", formats/apgr.md): the standard header
 * fields, the players and their seating, the moves in rounds, and the
 * `kifu` header object that carries what the schema cannot. Every
 * diagnostic is placed through the element's index of value positions
 * (json_pos.c). The scan of the file into elements is apgr.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "import_impl.h"
#include "json_pos.h"
#include "record/record_impl.h"

struct conv {
	const struct kifu_import_json_index_ *index; /* where the element's values start */
	struct kifu_record *rec;
	struct kifu_diags *diags;
	int failed;
	struct kifu_mark at; /* the element */
};

static struct kifu_mark val_at(const struct conv *c, const json_t *v)
{
	const struct kifu_import_json_pos_ *p = kifu_import_json_index_find_(c->index, v);

	return p ? p->val : c->at;
}

static struct kifu_mark key_at(const struct conv *c, const json_t *v)
{
	const struct kifu_import_json_pos_ *p = kifu_import_json_index_find_(c->index, v);

	return p ? p->key : c->at;
}

/* Where obj's member key has its value (found through the key: also for null, true, false). */
static struct kifu_mark member_at(const struct conv *c, const json_t *obj, const char *key)
{
	const struct kifu_import_json_pos_ *p = kifu_import_json_index_member_(c->index, obj, key);

	return p ? p->val : val_at(c, obj);
}

static void diag(struct conv *c, int ply, struct kifu_mark at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void diag(struct conv *c, int ply, struct kifu_mark at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kifu_diags_addv(c->diags, KIFU_DIAG_ERROR, c->rec->number, ply, at, fmt, ap) < 0)
		c->failed = 1;
	va_end(ap);
}

static const char *kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

/* The string member key of obj (where names it in messages), or NULL after a diagnostic. */
static const char *get_str(struct conv *c, const json_t *obj, const char *key, const char *where)
{
	const json_t *v = json_object_get(obj, key);

	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		diag(c, 0, member_at(c, obj, key), "'%s%s' must be a string, not %s", where, key,
		     kind(v));
		return NULL;
	}
	return json_string_value(v);
}

static void set_str(struct conv *c, int field, const json_t *obj, const char *key,
		    const char *where)
{
	const char *s = get_str(c, obj, key, where);
	const json_t *v = json_object_get(obj, key);

	if (s &&
	    kifu_import_set_(c->rec, field, s, json_string_length(v), key_at(c, v), val_at(c, v)))
		c->failed = 1;
}

/* Keys of obj not in allowed[]: errors (the schema forbids them there). */
static void only_keys(struct conv *c, const json_t *obj, const char *const *allowed,
		      const char *where)
{
	const char *key;
	json_t *v;
	char buf[KIFU_TEXT_CLIP + 1];

	json_object_foreach((json_t *)obj, key, v) {
		int i, ok = 0;

		for (i = 0; allowed[i]; i++)
			ok |= !strcmp(key, allowed[i]);
		if (!ok)
			diag(c, 0, key_at(c, v), "unknown key '%s'%s%s%s",
			     kifu_text_clip_(buf, key, SIZE_MAX), where[0] ? " in '" : "", where,
			     where[0] ? "'" : "");
	}
}

static int is_datetime(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	for (i = 0; shape[i]; i++) {
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9')
				    : shape[i] == 'T' ? !(s[i] == 'T' || s[i] == 't') : s[i] != shape[i])
			return 0;
	}
	if (s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (s[i - 1] == '.')
			return 0;
	}
	if ((s[i] == 'Z' || s[i] == 'z') && !s[i + 1])
		return 1;
	return (s[i] == '+' || s[i] == '-') && s[i + 1] >= '0' && s[i + 1] <= '9' &&
	       s[i + 2] >= '0' && s[i + 2] <= '9' && s[i + 3] == ':' && s[i + 4] >= '0' &&
	       s[i + 4] <= '9' && s[i + 5] >= '0' && s[i + 5] <= '9' && !s[i + 6];
}

static void conv_tags(struct conv *c, const json_t *tags)
{
	const char *key;
	json_t *v;
	char text[64], buf[KIFU_TEXT_CLIP + 1];

	if (!json_is_object(tags)) {
		diag(c, 0, val_at(c, tags), "'header.kifu.tags' must be an object, not %s", kind(tags));
		return;
	}
	json_object_foreach((json_t *)tags, key, v) {
		const char *value = text;
		int type = KIFU_SCALAR_STR;

		if (json_is_string(v)) {
			value = json_string_value(v);
		} else if (json_is_number(v)) {
			kifu_apgr_number_text_(v, text, sizeof(text));
			type = json_is_integer(v) ? KIFU_SCALAR_INT : KIFU_SCALAR_FLOAT;
		} else if (json_is_boolean(v)) {
			value = json_is_true(v) ? "true" : "false";
			type = KIFU_SCALAR_BOOL;
		} else if (json_is_null(v)) {
			value = "null";
			type = KIFU_SCALAR_NULL;
		} else if (json_is_object(v) && json_object_size(v) == 1 &&
			   json_is_string(json_object_get(v, "yaml"))) {
			/* a plain YAML scalar JSON has no type for: {"yaml": "0x1F"} */
			value = json_string_value(json_object_get(v, "yaml"));
			type = kifu_yaml_resolve(value, strlen(value), NULL, NULL, NULL);
		} else {
			diag(c, 0, val_at(c, v), "tag '%s' must be a scalar, not %s",
			     kifu_text_clip_(buf, key, SIZE_MAX), kind(v));
			continue;
		}
		if (strlen(value) != (json_is_string(v) ? json_string_length(v) : strlen(value))) {
			diag(c, 0, val_at(c, v), "tag '%s' holds a NUL character",
			     kifu_text_clip_(buf, key, SIZE_MAX));
			continue;
		}
		if (kifu_import_tag_(c->rec, key, value, type, key_at(c, v)))
			c->failed = 1;
	}
}

/* header.kifu.turns: {"7": {"comment": ..., "clock": ...}} onto the turns read. */
/* Format 2's nag and eval of a turn note (apgr carries no lines). */
static void conv_turn_format2(struct conv *c, struct kifu_turn *t, const json_t *v, int ply)
{
	const json_t *nag = json_object_get(v, "nag"), *ev = json_object_get(v, "eval");
	char buf[KIFU_TEXT_CLIP + 1], num[64];

	if (nag) {
		if (!json_is_string(nag) || !kifu_nag_index(json_string_value(nag)))
			diag(c, ply, val_at(c, nag), "unknown nag '%s' (one of !, ?, !!, ??, !?, ?!)",
			     json_is_string(nag) ? kifu_text_clip_(buf, json_string_value(nag),
								   SIZE_MAX)
						 : kind(nag));
		else if (kifu_record_turn_nag(c->rec, t, json_string_value(nag), NULL) < 0)
			c->failed = 1;
		else
			c->rec->format = 2;
	}
	if (ev) {
		const json_t *e = json_object_get(ev, "engine"), *x = json_object_get(ev, "expected");
		const json_t *b = json_object_get(ev, "best");
		const char *key;
		json_t *m;
		double f;

		if (!json_is_object(ev)) {
			diag(c, ply, val_at(c, ev),
			     "'eval' must be an object {engine, expected, best}, not %s", kind(ev));
			return;
		}
		json_object_foreach((json_t *)ev, key, m) if (strcmp(key, "engine") &&
							     strcmp(key, "expected") &&
							     strcmp(key, "best"))
			diag(c, ply, key_at(c, m), "unknown key '%s' in 'eval'",
			     kifu_text_clip_(buf, key, SIZE_MAX));
		if (!json_is_string(e) || !json_string_length(e) || !json_is_string(b) ||
		    !json_is_number(x)) {
			diag(c, ply, val_at(c, ev),
			     "'eval' must hold 'engine' and 'best' strings and an 'expected' number");
			return;
		}
		kifu_apgr_number_text_(x, num, sizeof(num));
		if (kifu_record_expected_(num, strlen(num), &f) < 0) {
			diag(c, ply, val_at(c, x),
			     "'expected' of 'eval' must be a number from 0 to 1, not '%s'", num);
			return;
		}
		if (kifu_record_turn_eval(c->rec, t, json_string_value(e), num, json_string_value(b),
					  NULL) < 0)
			c->failed = 1;
		else
			c->rec->format = 2;
	}
}

static void conv_turn_notes(struct conv *c, const json_t *turns)
{
	const char *key;
	json_t *v;
	char buf[KIFU_TEXT_CLIP + 1];

	if (!json_is_object(turns)) {
		diag(c, 0, val_at(c, turns), "'header.kifu.turns' must be an object, not %s",
		     kind(turns));
		return;
	}
	json_object_foreach((json_t *)turns, key, v) {
		char *end;
		unsigned long ply = strtoul(key, &end, 10);
		struct kifu_turn *t;
		const json_t *cm, *ck;
		const char *k2;
		json_t *x;

		if (!(key[0] >= '1' && key[0] <= '9') || *end || ply > c->rec->nturns) {
			diag(c, 0, key_at(c, v),
			     "'header.kifu.turns' has no ply '%s' (the game has %zu)",
			     kifu_text_clip_(buf, key, SIZE_MAX), c->rec->nturns);
			continue;
		}
		t = &c->rec->turns[ply - 1];
		if (!json_is_object(v)) {
			diag(c, (int)ply, val_at(c, v), "a turn note must be an object {comment, clock, nag, eval}, not %s",
			     kind(v));
			continue;
		}
		json_object_foreach((json_t *)v, k2,
				    x) if (strcmp(k2, "comment") && strcmp(k2, "clock") &&
					   strcmp(k2, "nag") && strcmp(k2, "eval"))
			diag(c, (int)ply, key_at(c, x), "unknown key '%s' in the turn",
			     kifu_text_clip_(buf, k2, SIZE_MAX));
		conv_turn_format2(c, t, v, (int)ply);
		cm = json_object_get(v, "comment");
		ck = json_object_get(v, "clock");
		if (cm && !json_is_string(cm))
			diag(c, (int)ply, member_at(c, v, "comment"), "'comment' must be a string, not %s",
			     kind(cm));
		else if (cm && strlen(json_string_value(cm)) != json_string_length(cm))
			diag(c, (int)ply, val_at(c, cm), "'comment' holds a NUL character");
		else if (cm && kifu_import_turn_comment_(c->rec, t, json_string_value(cm)))
			c->failed = 1;
		if (ck) {
			char text[64];
			const char *s = text;
			double f = 0;
			long l;
			int type;

			if (json_is_number(ck))
				kifu_apgr_number_text_(ck, text, sizeof(text));
			else if (json_is_string(ck))
				s = json_string_value(ck);
			else {
				diag(c, (int)ply, member_at(c, v, "clock"),
				     "'clock' must be a number of seconds, not %s",
				     kind(ck));
				continue;
			}
			type = kifu_yaml_resolve(s, strlen(s), &l, &f, NULL);
			if (type == KIFU_SCALAR_INT)
				f = (double)l;
			if ((type != KIFU_SCALAR_INT && type != KIFU_SCALAR_FLOAT) || !(f >= 0) ||
			    f > 1e15 || s[0] == '-')
				diag(c, (int)ply, val_at(c, ck),
				     "'clock' must be a number of seconds from 0, not '%s'",
				     kifu_text_clip_(buf, s, SIZE_MAX));
			else if (kifu_import_turn_clock_(c->rec, t, s))
				c->failed = 1;
		}
	}
}

static void conv_kifu(struct conv *c, const json_t *k)
{
	static const char *const keys[] = { "result", "termination", "date", "first", "annotator",
					    "source", "tags", "turns", NULL };

	if (!json_is_object(k)) {
		diag(c, 0, val_at(c, k), "'header.kifu' must be an object, not %s", kind(k));
		return;
	}
	only_keys(c, k, keys, "header.kifu");
	set_str(c, KIFU_KEY_RESULT, k, "result", "header.kifu.");
	set_str(c, KIFU_KEY_TERMINATION, k, "termination", "header.kifu.");
	set_str(c, KIFU_KEY_DATE, k, "date", "header.kifu.");
	set_str(c, KIFU_KEY_FIRST, k, "first", "header.kifu.");
	set_str(c, KIFU_KEY_ANNOTATOR, k, "annotator", "header.kifu.");
	set_str(c, KIFU_KEY_SOURCE, k, "source", "header.kifu.");
	if (json_object_get(k, "tags"))
		conv_tags(c, json_object_get(k, "tags"));
	if (json_object_get(k, "turns"))
		conv_turn_notes(c, json_object_get(k, "turns"));
}

static void conv_moves(struct conv *c, const json_t *moves)
{
	size_t r, i;
	char buf[KIFU_TEXT_CLIP + 1];

	if (!json_is_array(moves)) {
		diag(c, 0, val_at(c, moves), "'moves' must be an array of rounds, not %s", kind(moves));
		return;
	}
	c->rec->present |= 1u << KIFU_KEY_MOVES;
	c->rec->key_at[KIFU_KEY_MOVES] = key_at(c, moves);
	c->rec->value_at[KIFU_KEY_MOVES] = val_at(c, moves);
	for (r = 0; r < json_array_size(moves); r++) {
		const json_t *round = json_array_get(moves, r);

		if (!json_is_array(round)) {
			diag(c, 0, val_at(c, round), "round %zu of 'moves' must be an array, not %s", r + 1,
			     kind(round));
			continue;
		}
		for (i = 0; i < json_array_size(round); i++) {
			const json_t *e = json_array_get(round, i), *m = e;
			int ply = (int)c->rec->plies_written + 1;
			struct kifu_turn *t;

			if (json_is_null(e))
				continue;
			if (json_is_object(e)) {
				const char *key;
				json_t *x;

				json_object_foreach((json_t *)e, key,
						    x) if (strcmp(key, "move") &&
							   strcmp(key, "sequence") &&
							   strcmp(key, "result"))
					diag(c, ply, key_at(c, x),
					     "unknown key '%s' in a move entry",
					     kifu_text_clip_(buf, key, SIZE_MAX));
				m = json_object_get(e, "move");
				if (!m) {
					diag(c, ply, val_at(c, e), "a move entry has no 'move'");
					c->rec->plies_written++;
					continue;
				}
			}
			if (!json_is_string(m)) {
				diag(c, ply, val_at(c, m),
				     "a move must be a string, {\"move\": ...} or null, not %s", kind(m));
				c->rec->plies_written++;
				continue;
			}
			if (c->rec->nturns >= KIFU_RECORD_MAX_TURNS) {
				if (!(c->rec->flags & KIFU_RECORD_TRUNCATED))
					diag(c, ply, val_at(c, m), "'moves' has more than %d turns",
					     KIFU_RECORD_MAX_TURNS);
				c->rec->flags |= KIFU_RECORD_TRUNCATED;
				c->rec->plies_written++;
				continue;
			}
			t = kifu_import_turn_(c->rec, json_string_value(m), json_string_length(m),
					      val_at(c, m));
			if (!t)
				c->failed = 1;
			else if (strlen(t->text) != json_string_length(m))
				diag(c, ply, val_at(c, m), "a move holds a NUL character");
		}
	}
}

/*
 * The replay's outcome, for records without the kifu object: KIFU_ONGOING
 * also when the moves do not replay (the validator says why).
 */
static void replay_outcome(const struct kifu_record *rec, const struct kifu_game *g, int vi, int fi,
			   struct kifu_outcome *oc)
{
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	size_t i;

	oc->status = KIFU_ONGOING;
	oc->winner = -1;
	if (kifu_pos_new(&pos, g, vi, fi, &err) < 0)
		return;
	for (i = 0; i < rec->nturns; i++) {
		kifu_move m;

		if (!rec->turns[i].text || g->parse_move(pos->state, rec->turns[i].text, &m, &err) < 0)
			break;
		g->apply(pos->state, m);
	}
	if (i == rec->nturns)
		g->outcome(pos->state, oc);
	kifu_pos_free(pos);
}

/* header.players: the seating, the players' names and ratings, and the results. */
struct seats {
	int n;
	int side[64];       /* side index per seat, -1 unknown */
	long result[64];
	int has_result[64];
	struct kifu_mark at;
};

static void conv_players(struct conv *c, const json_t *players, const struct kifu_game *g,
			 struct seats *st)
{
	size_t i;
	char buf[KIFU_TEXT_CLIP + 1];

	st->n = 0;
	st->at = val_at(c, players);
	if (!json_is_array(players) || json_array_size(players) == 0) {
		diag(c, 0, val_at(c, players), "'header.players' must be a non-empty array, not %s",
		     json_is_array(players) ? "an empty one" : kind(players));
		return;
	}
	for (i = 0; i < json_array_size(players); i++) {
		const json_t *p = json_array_get(players, i), *name, *res, *side, *rating;
		const char *sname = NULL;
		int si = -1, seat = st->n < 64 ? st->n++ : -1;
		long r = 0;
		int has_rating = 0;

		if (seat >= 0) {
			st->side[seat] = -1;
			st->has_result[seat] = 0;
		}
		if (!json_is_object(p)) {
			diag(c, 0, val_at(c, p), "player %zu of 'header.players' must be an object, not %s",
			     i + 1, kind(p));
			continue;
		}
		name = json_object_get(p, "name");
		res = json_object_get(p, "result");
		side = json_object_get(p, "side");
		rating = json_object_get(p, "rating");
		if (!name || !json_is_string(name)) {
			diag(c, 0, name ? member_at(c, p, "name") : val_at(c, p),
			     "player %zu of 'header.players' %s", i + 1,
			     name ? "must have a string 'name'" : "has no 'name'");
			continue;
		}
		if (!res || !json_is_integer(res)) {
			diag(c, 0, res ? member_at(c, p, "result") : val_at(c, p),
			     "player %zu of 'header.players' %s", i + 1,
			     res ? "must have an integer 'result'" : "has no 'result'");
			continue;
		}
		if (seat >= 0) {
			st->result[seat] = (long)json_integer_value(res);
			st->has_result[seat] = 1;
		}
		if (side && !json_is_string(side)) {
			diag(c, 0, member_at(c, p, "side"), "'side' of player %zu must be a string, not %s",
			     i + 1,
			     kind(side));
			continue;
		}
		if (side) {
			sname = json_string_value(side);
			si = g ? kifu_game_side_index(g, sname) : -1;
		} else if (g) {
			si = (int)(i % (size_t)g->nsides);
			sname = g->sides[si];
		} else {
			continue; /* unknown game: nothing to seat (the validator says so) */
		}
		if (seat >= 0)
			st->side[seat] = si;
		if (rating && !json_is_integer(rating)) {
			diag(c, 0, member_at(c, p, "rating"),
			     "'rating' of player %zu must be an integer, not %s",
			     i + 1, kind(rating));
		} else if (rating) {
			r = (long)json_integer_value(rating);
			has_rating = 1;
		}
		{
			size_t j;

			for (j = 0; j < c->rec->nplayers; j++)
				if (!strcmp(c->rec->players[j].side, sname))
					break;
			if (j < c->rec->nplayers) {
				diag(c, 0, val_at(c, p),
				     "side '%s' is seated twice in 'header.players'",
				     kifu_text_clip_(buf, sname, SIZE_MAX));
				continue;
			}
		}
		if (!strcmp(json_string_value(name), "?"))
			continue; /* no player named for this side */
		if (strlen(json_string_value(name)) != json_string_length(name)) {
			diag(c, 0, val_at(c, name), "the name of player %zu holds a NUL character", i + 1);
			continue;
		}
		if (kifu_import_player_(c->rec, sname, json_string_value(name), has_rating, r,
					val_at(c, p)))
			c->failed = 1;
	}
}

/* Result, termination and first from the standard fields (no kifu object). */
static void derive_result(struct conv *c, const struct kifu_game *g, const struct seats *st)
{
	struct kifu_record *rec = c->rec;
	struct kifu_outcome oc;
	long best = 0;
	int i, nbest = 0, win = -1, vi, fi = 0;

	if (!g || st->n == 0)
		return;
	for (i = 0; i < st->n; i++)
		if (!st->has_result[i] || (i && st->side[i] < 0))
			return; /* reported already */
	if (st->side[0] > 0 && g->flags & KIFU_GAME_CHOOSE_FIRST) {
		fi = st->side[0];
		if (kifu_import_set_(rec, KIFU_KEY_FIRST, g->sides[fi], (size_t)-1, st->at, st->at))
			c->failed = 1;
	}
	for (i = 0; i < st->n; i++) {
		if (!nbest || st->result[i] > best) {
			best = st->result[i];
			nbest = 1;
			win = st->side[i];
		} else if (st->result[i] == best) {
			nbest++;
		}
	}
	if (nbest > 1 && nbest < st->n) {
		diag(c, 0, st->at, "%d players share the highest 'result' %ld: a shared win is not a kifu "
			"result", nbest, best);
		return;
	}
	vi = rec->variant ? kifu_game_variant_index(g, rec->variant) : 0;
	if (vi < 0 || (win < 0 && nbest == 1))
		return;
	replay_outcome(rec, g, vi, fi, &oc);
	if (nbest == 1) {
		if (kifu_import_set_(rec, KIFU_KEY_RESULT, g->sides[win], (size_t)-1, st->at,
				     st->at))
			c->failed = 1;
		if (!(oc.status == KIFU_WIN && oc.winner == win) &&
		    kifu_import_set_(rec, KIFU_KEY_TERMINATION, "resignation", (size_t)-1, st->at,
				     st->at))
			c->failed = 1;
	} else {
		if (kifu_import_set_(rec, KIFU_KEY_RESULT, "draw", (size_t)-1, st->at, st->at))
			c->failed = 1;
		if (oc.status != KIFU_DRAW &&
		    kifu_import_set_(rec, KIFU_KEY_TERMINATION, "agreement", (size_t)-1, st->at,
				     st->at))
			c->failed = 1;
	}
}

/*
 * header.KEY, an object with a string `name` and no keys but allowed[]
 * (the schema's game and site): *obj is the object when it is one, and the
 * name's value is returned when it is a string; else NULL, said why.
 */
static const json_t *named_object(struct conv *c, const json_t *h, const char *key,
				  const char *const *allowed, const json_t **obj)
{
	const json_t *o = json_object_get(h, key), *v;
	char where[32];

	*obj = NULL;
	if (!o)
		return NULL;
	snprintf(where, sizeof(where), "header.%s", key);
	if (!json_is_object(o)) {
		diag(c, 0, val_at(c, o), "'%s' must be an object, not %s", where, kind(o));
		return NULL;
	}
	*obj = o;
	only_keys(c, o, allowed, where);
	v = json_object_get(o, "name");
	if (!v)
		diag(c, 0, val_at(c, o), "missing key 'name' in '%s'", where);
	else if (!json_is_string(v))
		diag(c, 0, val_at(c, v), "'%s.name' must be a string, not %s", where, kind(v));
	else
		return v;
	return NULL;
}

static void conv_header(struct conv *c, const json_t *h, const json_t *moves)
{
	static const char *const game_keys[] = { "name", "variants", NULL };
	static const char *const site_keys[] = { "name", "gameid", NULL };
	static const char *const required[] = { "game", "site", "date-start", "date-end",
						"date-generated", "players", NULL };
	const json_t *game, *site, *v, *k;
	const struct kifu_game *g = NULL;
	struct seats st;
	char buf[KIFU_TEXT_CLIP + 1];
	int i;

	if (!json_is_object(h)) {
		diag(c, 0, val_at(c, h), "'header' must be an object, not %s", kind(h));
		return;
	}
	for (i = 0; required[i]; i++)
		if (!json_object_get(h, required[i]))
			diag(c, 0, val_at(c, h), "missing key '%s' in 'header'", required[i]);
	v = named_object(c, h, "game", game_keys, &game);
	if (v) {
		g = kifu_import_game_lookup_(json_string_value(v));
		if (kifu_import_set_(c->rec, KIFU_KEY_GAME, g ? g->name : json_string_value(v),
				     (size_t)-1, key_at(c, game), val_at(c, v)))
			c->failed = 1;
	}
	if (game) {
		v = json_object_get(game, "variants");
		if (v && (!json_is_array(v) || json_array_size(v) > 1 ||
			  (json_array_size(v) == 1 && !json_is_string(json_array_get(v, 0))))) {
			diag(c, 0, val_at(c, v), "'header.game.variants' must list at most one variant "
				"name, not %s", json_is_array(v) ? "several" : kind(v));
		} else if (v && json_array_size(v) == 1) {
			const json_t *s = json_array_get(v, 0);

			if (kifu_import_set_(c->rec, KIFU_KEY_VARIANT, json_string_value(s),
					     (size_t)-1, key_at(c, v), val_at(c, s)))
				c->failed = 1;
		}
	}
	set_str(c, KIFU_KEY_EVENT, h, "event", "header.");
	set_str(c, KIFU_KEY_ROUND, h, "round", "header.");
	v = named_object(c, h, "site", site_keys, &site);
	if (v && strcmp(json_string_value(v), "unknown") &&
	    kifu_import_set_(c->rec, KIFU_KEY_SITE, json_string_value(v), json_string_length(v),
			     key_at(c, site), val_at(c, v)))
		c->failed = 1;
	if (site) {
		v = json_object_get(site, "gameid");
		/* kifu's own tags (which hold gameid too) win over it */
		if (json_object_get(json_object_get(h, "kifu"), "tags"))
			v = NULL;
		if (v && !json_is_string(v) && !json_is_integer(v) && !json_is_real(v)) {
			diag(c, 0, member_at(c, site, "gameid"),
			     "'header.site.gameid' must be a string or a number, not %s",
			     kind(v));
		} else if (v) {
			char text[64];

			if (!json_is_string(v))
				kifu_apgr_number_text_(v, text, sizeof(text));
			if (kifu_import_tag_(c->rec, "gameid",
					     json_is_string(v) ? json_string_value(v) : text,
					     json_is_string(v)    ? KIFU_SCALAR_STR
					     : json_is_integer(v) ? KIFU_SCALAR_INT
								  : KIFU_SCALAR_FLOAT,
					     key_at(c, v)))
				c->failed = 1;
		}
	}
	for (i = 2; i < 5; i++) {
		v = json_object_get(h, required[i]);
		if (v && !(json_is_string(v) && is_datetime(json_string_value(v))))
			diag(c, 0, member_at(c, h, required[i]),
			     "'header.%s' must be a date-time (RFC 3339), not %s%s%s", required[i],
			     json_is_string(v) ? "'" : "",
			     json_is_string(v)
				     ? kifu_text_clip_(buf, json_string_value(v), SIZE_MAX)
				     : kind(v),
			     json_is_string(v) ? "'" : "");
	}
	if (moves)
		conv_moves(c, moves);
	st.n = 0;
	if (json_object_get(h, "players"))
		conv_players(c, json_object_get(h, "players"), g, &st);
	k = json_object_get(h, "kifu");
	if (k) {
		conv_kifu(c, k);
	} else {
		v = json_object_get(h, "date-end");
		if (json_is_string(v) && is_datetime(json_string_value(v)) &&
		    kifu_import_set_(c->rec, KIFU_KEY_DATE, json_string_value(v), 10, key_at(c, v),
				     val_at(c, v)))
			c->failed = 1;
		derive_result(c, g, &st);
	}
}

static void convert(struct conv *c, const json_t *root)
{
	static const char *const keys[] = { "header", "moves", NULL };
	const json_t *h, *m;

	if (!json_is_object(root)) {
		diag(c, 0, c->at, "a record must be a JSON object, not %s", kind(root));
		c->rec->flags |= KIFU_RECORD_NOT_A_GAME;
		return;
	}
	only_keys(c, root, keys, "");
	h = json_object_get(root, "header");
	m = json_object_get(root, "moves");
	if (!h)
		diag(c, 0, c->at, "missing key 'header'");
	if (!m)
		diag(c, 0, c->at, "missing key 'moves'");
	if (h)
		conv_header(c, h, m);
	else if (m)
		conv_moves(c, m);
}

int kifu_import_apgr_convert_(struct kifu_record *rec, struct kifu_diags *diags,
			      const struct kifu_import_json_index_ *index, struct kifu_mark at,
			      const json_t *root)
{
	struct conv c = { index, rec, diags, 0, at };

	convert(&c, root);
	return c.failed ? KIFU_ENOMEM : 0;
}
