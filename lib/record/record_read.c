/*
 * Reading a record from the node tree of its YAML document (record_tree.c
 * gathers it): the tree becomes a struct kifu_record while every structural
 * rule of RECORDS.md is checked: known keys (with a hint for a misspelt
 * one), no duplicates, value types, players, moves with their comments and
 * clocks, format 2's nags, evals and lines (read recursively, at most
 * KIFU_RECORD_MAX_LEVELS deep, their turns counted with the main line's
 * against KIFU_RECORD_MAX_TURNS), and tags.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/text.h"
#include "record/record_impl.h"
#include "record/record_yaml.h"
#include "util/text_impl.h"

/*
 * " (did you mean 'result'?)" when one of keys (NULL-terminated) is close
 * to the unknown key name (keys NULL: the keys of a record), else "": the
 * hint of an unknown-key diagnostic.
 */
static const char *key_hint(char *out, size_t n, const char *name, const char *const *keys)
{
	struct kifu_near near;

	int k;

	kifu_near_init(&near, name);
	for (k = 0; keys ? keys[k] != NULL : k < KIFU_KEY_COUNT; k++)
		kifu_near_add(&near, keys ? keys[k] : kifu_key_name(k));
	if (kifu_near_best(&near))
		snprintf(out, n, " (did you mean '%s'?)", kifu_near_best(&near));
	else if (n)
		out[0] = '\0';
	return out;
}

static const char *const player_keys[] = { "name", "rating", NULL };
static const char *const turn_keys[] = { "move", "nag", "comment", "clock", "eval",
					 "variations", NULL };
static const char *const eval_keys[] = { "engine", "expected", "best", NULL };


/* ---- Turning the tree into a record ---- */

static struct kifu_record_node_ *N(struct kifu_record_doc_ *d, uint32_t i)
{
	return &d->r->nodes[i];
}

static const char *kind(const struct kifu_record_node_ *n)
{
	switch (n->type) {
	case KIFU_NODE_MAP_: return "a mapping";
	case KIFU_NODE_SEQ_: return "a sequence";
	default: return "a scalar";
	}
}

/* A plain null scalar (empty, ~, null): "no value". */
static int is_null(const struct kifu_record_node_ *n)
{
	return n->type == KIFU_NODE_SCALAR_ && n->plain &&
	       kifu_yaml_resolve(n->text, n->len, NULL, NULL, NULL) == KIFU_SCALAR_NULL;
}

/* Checks that key node k is a string; reports it otherwise. */
static int key_ok(struct kifu_record_doc_ *d, const struct kifu_record_node_ *k, int ply)
{
	if (k->type == KIFU_NODE_SCALAR_)
		return 1;
	if (k->type != KIFU_NODE_BAD_)
		kifu_record_diag_(d, ply, kifu_record_node_at_(k), "a key must be a string, not %s",
				  kind(k));
	return 0;
}

/* The text of a string-valued node, or NULL after reporting what it is. */
static char *string_of(struct kifu_record_doc_ *d, const struct kifu_record_node_ *v, int ply,
		       const char *what)
{
	if (v->type == KIFU_NODE_SCALAR_)
		return v->text;
	if (v->type != KIFU_NODE_BAD_)
		kifu_record_diag_(d, ply, kifu_record_node_at_(v), "%s must be a string, not %s",
				  what, kind(v));
	return NULL;
}

/* A plain YAML 1.1 integer; reports and returns -1 otherwise. */
static int int_of(struct kifu_record_doc_ *d, const struct kifu_record_node_ *v, const char *what,
		  long *out)
{
	char buf[CLIP + 1];
	int over;

	if (v->type == KIFU_NODE_BAD_)
		return -1;
	if (v->type != KIFU_NODE_SCALAR_) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "%s must be a plain integer, not %s", what, kind(v));
		return -1;
	}
	if (!v->plain) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "%s must be a plain integer, not the quoted string '%s'", what,
				  kifu_text_clip_(buf, v->text, v->len));
		return -1;
	}
	if (kifu_yaml_resolve(v->text, v->len, out, NULL, &over) != KIFU_SCALAR_INT) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "%s must be a plain integer, not '%s'", what,
				  kifu_text_clip_(buf, v->text, v->len));
		return -1;
	}
	if (over) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v), "%s is out of range: '%s'", what,
				  kifu_text_clip_(buf, v->text, v->len));
		return -1;
	}
	return 0;
}

static void convert_player(struct kifu_record_doc_ *d, const struct kifu_record_node_ *k,
			   const struct kifu_record_node_ *v)
{
	struct kifu_record_player *p;
	char buf[CLIP + 1], what[CLIP + 40];
	const char *side = kifu_text_clip_(buf, k->text, k->len);
	uint32_t c;
	size_t i;

	for (i = 0; i < d->rec->nplayers; i++)
		if (!strcmp(d->rec->players[i].side, k->text)) {
			kifu_record_diag_(d, 0, kifu_record_node_at_(k),
					  "duplicate key '%s' in 'players'", side);
			return;
		}
	p = kifu_record_push_player_(d->rec);
	if (!p) {
		d->failed = 1;
		return;
	}
	p->side = k->text;
	p->at = kifu_record_node_at_(k);
	if (v->type == KIFU_NODE_SCALAR_) {
		p->name = v->text;
		return;
	}
	if (v->type == KIFU_NODE_BAD_)
		return;
	if (v->type != KIFU_NODE_MAP_) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "player '%s' must be a name or a mapping {name, rating}, not %s",
				  side, kind(v));
		return;
	}
	{
		int seen_name = 0, seen_rating = 0;

		for (c = v->first; c; c = N(d, c)->next) {
			const struct kifu_record_node_ *kk = N(d, c), *vv;

			c = kk->next;
			if (!c)
				break;
			vv = N(d, c);
			if (!key_ok(d, kk, 0))
				continue;
			if (!strcmp(kk->text, "name")) {
				if (seen_name++) {
					kifu_record_diag_(d, 0, kifu_record_node_at_(kk),
							  "duplicate key 'name' in player '%s'",
							  side);
					continue;
				}
				snprintf(what, sizeof(what), "'name' of player '%s'", side);
				p->name = string_of(d, vv, 0, what);
			} else if (!strcmp(kk->text, "rating")) {
				if (seen_rating++) {
					kifu_record_diag_(d, 0, kifu_record_node_at_(kk),
							  "duplicate key 'rating' in player '%s'",
							  side);
					continue;
				}
				snprintf(what, sizeof(what), "'rating' of player '%s'", side);
				if (int_of(d, vv, what, &p->rating) == 0)
					p->has_rating = 1;
			} else {
				char kb[CLIP + 1], hint[64];

				kifu_record_diag_(
					d, 0, kifu_record_node_at_(kk),
					"unknown key '%s' in player '%s'%s",
					kifu_text_clip_(kb, kk->text, kk->len), side,
					key_hint(hint, sizeof(hint), kk->text, player_keys));
			}
		}
		if (!seen_name)
			kifu_record_diag_(d, 0, kifu_record_node_at_(v),
					  "player '%s' has no 'name'", side);
	}
}

static void convert_players(struct kifu_record_doc_ *d, const struct kifu_record_node_ *v)
{
	uint32_t c;

	if (v->type == KIFU_NODE_BAD_ || is_null(v))
		return;
	if (v->type != KIFU_NODE_MAP_) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "'players' must be a mapping of sides to players, not %s",
				  kind(v));
		return;
	}
	for (c = v->first; c; c = N(d, c)->next) {
		const struct kifu_record_node_ *k = N(d, c);

		c = k->next;
		if (!c)
			break;
		if (key_ok(d, k, 0))
			convert_player(d, k, N(d, c));
	}
}

static void convert_clock(struct kifu_record_doc_ *d, struct kifu_turn *t,
			  const struct kifu_record_node_ *v, int ply)
{
	char buf[CLIP + 1];
	double f = 0;
	int ret;

	if (v->type == KIFU_NODE_BAD_)
		return;
	if (v->type != KIFU_NODE_SCALAR_) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "'clock' must be a plain number of seconds, not %s", kind(v));
		return;
	}
	if (!v->plain) {
		kifu_record_diag_(
			d, ply, kifu_record_node_at_(v),
			"'clock' must be a plain number of seconds, not the quoted string '%s'",
			kifu_text_clip_(buf, v->text, v->len));
		return;
	}
	ret = kifu_clock_seconds(v->text, v->len, &f);
	if (ret == KIFU_EPARSE) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "'clock' must be a plain number of seconds, not '%s'",
				  kifu_text_clip_(buf, v->text, v->len));
		return;
	}
	if (ret < 0) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "'clock' must be a number of seconds from 0, not '%s'",
				  kifu_text_clip_(buf, v->text, v->len));
		return;
	}
	t->clock = v->text;
	t->clock_seconds = f;
}

static void convert_turn(struct kifu_record_doc_ *d, struct kifu_turn *t,
			 const struct kifu_record_node_ *item, int ply, int level);

/* A format-2 `eval`: exactly {engine, expected, best}. */
static void convert_eval(struct kifu_record_doc_ *d, struct kifu_turn *t,
			 const struct kifu_record_node_ *v, int ply)
{
	static const char *const names[] = { "engine", "expected", "best" };
	struct kifu_eval *e;
	char buf[CLIP + 1], hint[64];
	int seen[3] = { 0, 0, 0 }, k;
	uint32_t c;

	if (v->type == KIFU_NODE_BAD_)
		return;
	if (v->type != KIFU_NODE_MAP_) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "'eval' must be a mapping {engine, expected, best}, not %s", kind(v));
		return;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		d->failed = 1;
		return;
	}
	t->eval = e;
	e->at = kifu_record_node_at_(v);
	for (c = v->first; c; c = N(d, c)->next) {
		const struct kifu_record_node_ *kk = N(d, c), *vv;

		c = kk->next;
		if (!c)
			break;
		vv = N(d, c);
		if (!key_ok(d, kk, ply))
			continue;
		for (k = 0; k < 3 && strcmp(kk->text, names[k]); k++)
			;
		if (k == 3) {
			kifu_record_diag_(d, ply, kifu_record_node_at_(kk),
					  "unknown key '%s' in 'eval'%s",
					  kifu_text_clip_(buf, kk->text, kk->len),
					  key_hint(hint, sizeof(hint), kk->text, eval_keys));
			continue;
		}
		if (seen[k]++) {
			kifu_record_diag_(d, ply, kifu_record_node_at_(kk),
					  "duplicate key '%s' in 'eval'", names[k]);
			continue;
		}
		if (k == 0) {
			e->engine = string_of(d, vv, ply, "'engine' of 'eval'");
			if (e->engine && !e->engine[0])
				kifu_record_diag_(d, ply, kifu_record_node_at_(vv),
						  "'engine' of 'eval' must not be empty");
		} else if (k == 2) {
			e->best = string_of(d, vv, ply, "'best' of 'eval'");
			e->best_at = kifu_record_node_at_(vv);
		} else if (vv->type != KIFU_NODE_SCALAR_) {
			if (vv->type != KIFU_NODE_BAD_)
				kifu_record_diag_(d, ply, kifu_record_node_at_(vv),
						  "'expected' of 'eval' must be a plain number from 0 "
						  "to 1, not %s", kind(vv));
		} else if (!vv->plain ||
			   kifu_record_expected_(vv->text, vv->len, &e->expected_value) < 0) {
			kifu_record_diag_(d, ply, kifu_record_node_at_(vv),
					  "'expected' of 'eval' must be a plain number from 0 to 1, "
					  "not %s'%s'", vv->plain ? "" : "the quoted string ",
					  kifu_text_clip_(buf, vv->text, vv->len));
		} else {
			e->expected = vv->text;
		}
	}
	for (k = 0; k < 3; k++)
		if (!seen[k])
			kifu_record_diag_(d, ply, kifu_record_node_at_(v), "'eval' has no '%s'",
					  names[k]);
}

/*
 * A format-2 `variations` of the turn at ply (of level: 0 for the main
 * line): each line is read with its turns numbered from ply on, and the
 * path of the diagnostics grows by the line.
 */
static void convert_lines(struct kifu_record_doc_ *d, struct kifu_turn *t,
			  const struct kifu_record_node_ *v, int ply, int level)
{
	size_t saved = d->path_len, j = 0;
	uint32_t c;

	if (v->type == KIFU_NODE_BAD_)
		return;
	if (v->type != KIFU_NODE_SEQ_ || v->nkids == 0) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "'variations' must be a non-empty sequence of lines, not %s",
				  v->type == KIFU_NODE_SEQ_ ? "an empty sequence" : kind(v));
		return;
	}
	if (level + 1 > KIFU_RECORD_MAX_LEVELS) {
		kifu_record_diag_(d, ply, kifu_record_node_at_(v),
				  "variations nested deeper than %d levels", KIFU_RECORD_MAX_LEVELS);
		return;
	}
	t->lines = calloc(v->nkids, sizeof(*t->lines));
	if (!t->lines) {
		d->failed = 1;
		return;
	}
	t->lines_cap_ = v->nkids;
	if (level == 0)
		d->main_ply = ply;
	for (c = v->first; c && !(d->rec->flags & KIFU_RECORD_TRUNCATED); c = N(d, c)->next) {
		const struct kifu_record_node_ *ln = N(d, c);
		struct kifu_line *line = &t->lines[j++];
		uint32_t k;
		int lply = ply;

		t->nlines = j;
		line->at = kifu_record_node_at_(ln);
		if (level == 0)
			d->path_len = (size_t)snprintf(d->path, sizeof(d->path), ", line %zu", j);
		else
			d->path_len = saved + (size_t)snprintf(d->path + saved, sizeof(d->path) - saved,
							       ", ply %d, line %zu", ply, j);
		if (ln->type == KIFU_NODE_BAD_)
			continue;
		if (ln->type != KIFU_NODE_SEQ_ || ln->nkids == 0) {
			kifu_record_diag_(d, 0, kifu_record_node_at_(ln),
					  "a line must be a non-empty sequence of turns, not %s",
					  ln->type == KIFU_NODE_SEQ_ ? "an empty sequence" : kind(ln));
			continue;
		}
		line->turns = calloc(ln->nkids, sizeof(*line->turns));
		if (!line->turns) {
			d->failed = 1;
			break;
		}
		line->cap_ = ln->nkids;
		for (k = ln->first; k; k = N(d, k)->next) {
			if (++d->turns > KIFU_RECORD_MAX_TURNS) {
				kifu_record_diag_(d, lply, kifu_record_node_at_(N(d, k)),
						  "the game has more than %d turns, its lines "
						  "included", KIFU_RECORD_MAX_TURNS);
				d->rec->flags |= KIFU_RECORD_TRUNCATED;
				break;
			}
			line->nturns++;
			d->rec->line_turns++;
			convert_turn(d, &line->turns[line->nturns - 1], N(d, k), lply++, level + 1);
		}
	}
	d->path_len = saved;
	d->path[saved] = '\0';
}

static void convert_turn(struct kifu_record_doc_ *d, struct kifu_turn *t,
			 const struct kifu_record_node_ *item, int ply, int level)
{
	int seen_move = 0, seen_comment = 0, seen_clock = 0, seen_nag = 0, seen_eval = 0;
	int seen_lines = 0;
	const struct kifu_record_node_ *lines = NULL;
	uint32_t c;

	t->at = kifu_record_node_at_(item);
	if (item->type == KIFU_NODE_SCALAR_) {
		t->text = item->text;
		return;
	}
	if (item->type == KIFU_NODE_BAD_)
		return;
	if (item->type != KIFU_NODE_MAP_) {
		kifu_record_diag_(
			d, ply, kifu_record_node_at_(item),
			"a turn must be a move or a mapping {move, comment, clock}, not %s",
			kind(item));
		return;
	}
	for (c = item->first; c; c = N(d, c)->next) {
		const struct kifu_record_node_ *k = N(d, c), *v;
		char buf[CLIP + 1];

		c = k->next;
		if (!c)
			break;
		v = N(d, c);
		if (!key_ok(d, k, ply))
			continue;
		if (!strcmp(k->text, "move")) {
			if (seen_move++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'move' in the turn");
				continue;
			}
			t->text = string_of(d, v, ply, "'move'");
			t->at = kifu_record_node_at_(v);
			if (!t->text)
				t->at = kifu_record_node_at_(v);
		} else if (!strcmp(k->text, "comment")) {
			if (seen_comment++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'comment' in the turn");
				continue;
			}
			t->comment = string_of(d, v, ply, "'comment'");
		} else if (!strcmp(k->text, "clock")) {
			if (seen_clock++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'clock' in the turn");
				continue;
			}
			convert_clock(d, t, v, ply);
		} else if (!strcmp(k->text, "nag")) {
			char *nag;

			if (seen_nag++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'nag' in the turn");
				continue;
			}
			t->nag_at = kifu_record_node_at_(k);
			nag = string_of(d, v, ply, "'nag'");
			if (nag && !kifu_nag_index(nag))
				kifu_record_diag_(d, ply, kifu_record_node_at_(v),
						  "unknown nag '%s' (one of !, ?, !!, ??, !?, ?!)",
						  kifu_text_clip_(buf, v->text, v->len));
			else
				t->nag = nag;
		} else if (!strcmp(k->text, "eval")) {
			if (seen_eval++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'eval' in the turn");
				continue;
			}
			t->eval_at = kifu_record_node_at_(k);
			convert_eval(d, t, v, ply);
		} else if (!strcmp(k->text, "variations")) {
			if (seen_lines++) {
				kifu_record_diag_(d, ply, kifu_record_node_at_(k),
						  "duplicate key 'variations' in the turn");
				continue;
			}
			t->lines_at = kifu_record_node_at_(k);
			lines = v;
		} else {
			char hint[64];

			kifu_record_diag_(d, ply, kifu_record_node_at_(k),
					  "unknown key '%s' in the turn%s",
					  kifu_text_clip_(buf, k->text, k->len),
					  key_hint(hint, sizeof(hint), k->text, turn_keys));
		}
	}
	if (!seen_move)
		kifu_record_diag_(d, ply, kifu_record_node_at_(item), "the turn has no 'move'");
	/* Last, so that the turn's own diagnostics come before those of its lines. */
	if (lines)
		convert_lines(d, t, lines, ply, level);
}

static void convert_moves(struct kifu_record_doc_ *d, const struct kifu_record_node_ *v)
{
	uint32_t c;
	int ply = 0;

	if (v->type == KIFU_NODE_BAD_ || is_null(v))
		return;
	if (v->type != KIFU_NODE_SEQ_) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v),
				  "'moves' must be a sequence, not %s", kind(v));
		return;
	}
	d->rec->plies_written = v->nkids;
	/* room for every turn at once rather than by doubling (push_turn_ grows it if this fails) */
	if (v->nkids > d->rec->cap_turns_) {
		size_t want = v->nkids < KIFU_RECORD_MAX_TURNS ? v->nkids : KIFU_RECORD_MAX_TURNS;
		struct kifu_turn *t = realloc(d->rec->turns, want * sizeof(*t));

		if (t) {
			d->rec->turns = t;
			d->rec->cap_turns_ = want;
		}
	}
	for (c = v->first; c && !(d->rec->flags & KIFU_RECORD_TRUNCATED); c = N(d, c)->next) {
		struct kifu_turn *t;

		ply++;
		if (++d->turns > KIFU_RECORD_MAX_TURNS) {
			if (d->rec->line_turns)
				kifu_record_diag_(d, ply, kifu_record_node_at_(N(d, c)),
						  "the game has more than %d turns, its lines "
						  "included", KIFU_RECORD_MAX_TURNS);
			else
				kifu_record_diag_(d, ply, kifu_record_node_at_(N(d, c)),
						  "'moves' has more than %d turns",
						  KIFU_RECORD_MAX_TURNS);
			d->rec->flags |= KIFU_RECORD_TRUNCATED;
			return;
		}
		t = kifu_record_push_turn_(d->rec);
		if (!t) {
			d->failed = 1;
			return;
		}
		convert_turn(d, t, N(d, c), ply, 0);
	}
}

static void convert_tags(struct kifu_record_doc_ *d, const struct kifu_record_node_ *v)
{
	uint32_t c;
	size_t i;

	if (v->type == KIFU_NODE_BAD_ || is_null(v))
		return;
	if (v->type != KIFU_NODE_MAP_) {
		kifu_record_diag_(d, 0, kifu_record_node_at_(v), "'tags' must be a mapping, not %s",
				  kind(v));
		return;
	}
	for (c = v->first; c; c = N(d, c)->next) {
		const struct kifu_record_node_ *k = N(d, c), *val;
		struct kifu_tag *t;
		char buf[CLIP + 1];
		int dup = 0;

		c = k->next;
		if (!c)
			break;
		val = N(d, c);
		if (!key_ok(d, k, 0))
			continue;
		for (i = 0; i < d->rec->ntags && !dup; i++)
			dup = !strcmp(d->rec->tags[i].key, k->text);
		if (dup) {
			kifu_record_diag_(d, 0, kifu_record_node_at_(k),
					  "duplicate key '%s' in 'tags'",
					  kifu_text_clip_(buf, k->text, k->len));
			continue;
		}
		if (val->type != KIFU_NODE_SCALAR_) {
			if (val->type != KIFU_NODE_BAD_)
				kifu_record_diag_(d, 0, kifu_record_node_at_(val),
						  "tag '%s' must be a scalar, not %s",
						  kifu_text_clip_(buf, k->text, k->len),
						  kind(val));
			continue;
		}
		t = kifu_record_push_tag_(d->rec);
		if (!t) {
			d->failed = 1;
			return;
		}
		t->key = k->text;
		t->value = val->text;
		t->type = val->plain ? kifu_yaml_resolve(val->text, val->len, NULL, NULL, NULL)
				     : KIFU_SCALAR_STR;
		t->at = kifu_record_node_at_(k);
	}
}

static int lookup_key(const char *s)
{
	int k;

	/* The first letters tell the keys apart but for s(ite, ource) and r(ound, esult). */
	switch (s[0]) {
	case 'f': k = s[1] == 'o' ? KIFU_KEY_FORMAT : KIFU_KEY_FIRST; break;
	case 'g': k = KIFU_KEY_GAME; break;
	case 'v': k = KIFU_KEY_VARIANT; break;
	case 'e': k = KIFU_KEY_EVENT; break;
	case 's': k = s[1] == 'i' ? KIFU_KEY_SITE : KIFU_KEY_SOURCE; break;
	case 'r': k = s[1] == 'o' ? KIFU_KEY_ROUND : KIFU_KEY_RESULT; break;
	case 'a': k = KIFU_KEY_ANNOTATOR; break;
	case 'd': k = KIFU_KEY_DATE; break;
	case 'p': k = KIFU_KEY_PLAYERS; break;
	case 'm': k = KIFU_KEY_MOVES; break;
	case 't': k = s[1] == 'e' ? KIFU_KEY_TERMINATION : KIFU_KEY_TAGS; break;
	default: return -1;
	}
	return strcmp(s, kifu_key_name(k)) ? -1 : k;
}

void kifu_record_from_tree_(struct kifu_record_doc_ *d)
{
	struct kifu_record *rec = d->rec;
	const struct kifu_record_node_ *root;
	char buf[CLIP + 1];
	uint32_t c;

	d->turns = 0;
	d->path_len = 0;
	d->path[0] = '\0';
	if (d->r->nnodes == 0 || d->r->overflow || N(d, 0)->type != KIFU_NODE_MAP_)
		rec->flags |= KIFU_RECORD_NOT_A_GAME;
	if (d->r->nnodes == 0 || d->r->overflow)
		return;
	root = N(d, 0);
	if (root->type == KIFU_NODE_BAD_)
		return;
	if (is_null(root)) {
		kifu_record_diag_(d, 0, rec->at, "the document is empty");
		return;
	}
	if (root->type != KIFU_NODE_MAP_) {
		if (root->type == KIFU_NODE_SCALAR_)
			kifu_record_diag_(d, 0, kifu_record_node_at_(root),
					  "a game must be a YAML mapping, not the scalar '%s'",
					  kifu_text_clip_(buf, root->text, root->len));
		else
			kifu_record_diag_(d, 0, kifu_record_node_at_(root),
					  "a game must be a YAML mapping, not %s", kind(root));
		return;
	}
	static const char *const quoted[KIFU_KEY_COUNT] = {
		"'format'", "'game'", "'variant'", "'event'", "'site'", "'round'", "'annotator'",
		"'source'", "'date'", "'players'", "'first'", "'moves'", "'result'", "'termination'",
		"'tags'"
	};

	for (c = root->first; c; c = N(d, c)->next) {
		const struct kifu_record_node_ *k = N(d, c), *v;
		const char *what;
		int key;

		c = k->next;
		if (!c)
			break;
		v = N(d, c);
		if (!key_ok(d, k, 0))
			continue;
		key = lookup_key(k->text);
		if (key < 0) {
			char hint[64];

			kifu_record_diag_(d, 0, kifu_record_node_at_(k), "unknown key '%s'%s",
					  kifu_text_clip_(buf, k->text, k->len),
					  key_hint(hint, sizeof(hint), k->text, NULL));
			continue;
		}
		if (rec->present & (1u << key)) {
			kifu_record_diag_(d, 0, kifu_record_node_at_(k), "duplicate key '%s'",
					  k->text);
			continue;
		}
		rec->present |= 1u << key;
		rec->key_at[key] = kifu_record_node_at_(k);
		rec->value_at[key] = kifu_record_node_at_(v);
		what = quoted[key];
		switch (key) {
		case KIFU_KEY_FORMAT:
			if (int_of(d, v, what, &rec->format) < 0)
				rec->format = 1; /* reported already */
			break;
		case KIFU_KEY_PLAYERS:
			convert_players(d, v);
			break;
		case KIFU_KEY_MOVES:
			convert_moves(d, v);
			break;
		case KIFU_KEY_TAGS:
			convert_tags(d, v);
			break;
		default:
			*kifu_record_field_(rec, key) = string_of(d, v, 0, what);
			break;
		}
	}
}
