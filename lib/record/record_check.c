/*
 * The record validator: everything RECORDS.md asks beyond the shape that
 * the reader checks. It resolves the game, variant and first side through
 * the registry, checks dates and players, replays every move through the
 * rules engine (parse_move for notation and legality, outcome() for moves
 * after the end), keeps the canonical moves, the position hash of every ply
 * and the final figures, and then checks result and termination against
 * the final position ("Result checking"). It names no game: every rule that
 * belongs to a game comes from the struct kifu_game.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kifu/date.h"
#include "kifu/diag.h"
#include "kifu/pattern.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "kifu/text.h"
#include "record/record_impl.h"
#include "util/text_impl.h"

#define CLIP KIFU_TEXT_CLIP

enum term {
	T_NONE,
	T_RULES,
	T_RESIGNATION,
	T_TIMEOUT,
	T_AGREEMENT,
	T_ABANDONED,
	T_BAD
};

static const char *const term_names[] = {
	"", "rules", "resignation", "timeout", "agreement", "abandoned", NULL
};

/* A result: a side index (>= 0), or one of these. */
enum { R_DRAW = -1, R_UNFINISHED = -2, R_BAD = -3 };

struct check {
	const struct kifu_record *rec;
	struct kifu_diags *diags;
	int failed;
	struct kifu_replay *rp;
	unsigned flags;
	int line_errors;      /* errors in lines and evals (they leave the main line's checks) */
};

static void report(struct check *c, int severity, int ply, struct kifu_mark at, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));

static void report(struct check *c, int severity, int ply, struct kifu_mark at, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kifu_diags_addv(c->diags, severity, c->rec->number, ply, at, fmt, ap) < 0)
		c->failed = 1;
	va_end(ap);
}

/*
 * A problem in format 2's lines: "game K, ply MAIN, PATH, ply P: ..." (P 0:
 * the path alone), its ply the main line's.
 */
static void report_path(struct check *c, int main_ply, const char *path, int ply,
			struct kifu_mark at, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void report_path(struct check *c, int main_ply, const char *path, int ply,
			struct kifu_mark at, const char *fmt, ...)
{
	char full[KIFU_RECORD_MAX_LEVELS * 32 + 32];
	va_list ap;

	if (ply > 0)
		snprintf(full, sizeof(full), "%s%sply %d", path, path[0] ? ", " : "", ply);
	else
		snprintf(full, sizeof(full), "%s", path);
	va_start(ap, fmt);
	if (kifu_diags_add_pathv(c->diags, KIFU_DIAG_ERROR, c->rec->number, main_ply, full, at, fmt,
				 ap) < 0)
		c->failed = 1;
	va_end(ap);
	c->line_errors++;
}

static const char *clip(const char *s, char *buf)
{
	return kifu_text_clip_(buf, s, strlen(s));
}

/* "a, b, c" from a NULL-terminated list. */
static void join(char *out, size_t size, const char *const *names, const char *more)
{
	size_t n = 0;
	int i;

	out[0] = '\0';
	for (i = 0; names[i] && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", names[i]);
	if (more && n < size)
		snprintf(out + n, size - n, "%s%s", n ? ", " : "", more);
}

/* The first use of a format-2 key: where, and the path to it. */
struct first_use {
	struct kifu_mark at;
	int main_ply, ply;
	char path[KIFU_RECORD_MAX_LEVELS * 32];
};

static int before(struct kifu_mark a, struct kifu_mark b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static void note_use(struct first_use *u, struct kifu_mark at, int main_ply, const char *path,
		     int ply)
{
	if (u->main_ply && !before(at, u->at))
		return;
	u->at = at;
	u->main_ply = main_ply;
	u->ply = path[0] ? ply : 0;
	snprintf(u->path, sizeof(u->path), "%s", path);
}

static void find_uses(struct first_use *uses, const struct kifu_turn *turns, size_t n,
		      int main_ply, int ply, char *path)
{
	size_t i, j, plen = strlen(path), size = KIFU_RECORD_MAX_LEVELS * 32;

	for (i = 0; i < n; i++, ply++) {
		const struct kifu_turn *t = &turns[i];
		int mp = main_ply ? main_ply : ply;

		if (t->nag)
			note_use(&uses[0], t->nag_at, mp, path, ply);
		if (t->eval)
			note_use(&uses[1], t->eval_at, mp, path, ply);
		if (t->nlines)
			note_use(&uses[2], t->lines_at, mp, path, ply);
		for (j = 0; j < t->nlines; j++) {
			if (plen == 0)
				snprintf(path, size, "line %zu", j + 1);
			else
				snprintf(path + plen, size - plen, ", ply %d, line %zu", ply, j + 1);
			find_uses(uses, t->lines[j].turns, t->lines[j].nturns, mp, ply, path);
			path[plen] = '\0';
		}
	}
}

/* A format-1 record using format 2's keys: one error per key, at its first use. */
static void check_format2_keys(struct check *c)
{
	static const char *const names[3] = { "nag", "eval", "variations" };
	struct first_use uses[3];
	char path[KIFU_RECORD_MAX_LEVELS * 32] = "";
	int k;

	if (!kifu_record_uses_format2(c->rec))
		return;
	memset(uses, 0, sizeof(uses));
	find_uses(uses, c->rec->turns, c->rec->nturns, 0, 1, path);
	for (k = 0; k < 3; k++)
		if (uses[k].main_ply)
			report_path(c, uses[k].main_ply, uses[k].path, uses[k].ply, uses[k].at,
				    "'%s' needs format 2 (say 'format: 2')", names[k]);
}

void kifu_replay_release(struct kifu_replay *rp)
{
	if (!rp)
		return;
	free(rp->moves);
	free(rp->hashes);
	free(rp->canonical);
	free(rp->state);
	free(rp->xtext);
	free(rp->canon);
	free(rp->syms);
	free(rp->legal_buf_);
	memset(rp, 0, sizeof(*rp));
	rp->variant = -1;
	rp->first = -1;
	rp->outcome.winner = -1;
}

const char *kifu_replay_text(const struct kifu_replay *rp, size_t ply)
{
	if (!rp->canonical || ply < 1 || ply > rp->nplies)
		return NULL;
	return rp->canonical + (ply - 1) * KIFU_MOVE_TEXT_MAX;
}

const char *kifu_replay_xtext(const struct kifu_replay *rp, size_t i)
{
	if (!rp || !rp->complete || !rp->xtext || i >= rp->nx)
		return NULL;
	return rp->xtext + i * KIFU_MOVE_TEXT_MAX;
}

/* Keeps the canonical text of m (in state) as the next of the replay's lines and evals. */
static void keep_xtext(struct check *c, const struct kifu_game *g, const void *state, kifu_move m)
{
	struct kifu_replay *rp = c->rp;

	if (!(c->flags & KIFU_VALIDATE_TEXT))
		return;
	if (rp->nx == rp->capx_) {
		size_t cap = rp->capx_ ? rp->capx_ * 2 : 16;
		char *p = realloc(rp->xtext, cap * KIFU_MOVE_TEXT_MAX);

		if (!p) {
			c->failed = 1;
			return;
		}
		rp->xtext = p;
		rp->capx_ = cap;
	}
	g->format_move(state, m, rp->xtext + rp->nx++ * KIFU_MOVE_TEXT_MAX);
}

/* A move's text past KIFU_RECORD_MAX_MOVE once trimmed: *s is where it starts. */
static int too_long(const char *text, const char **start)
{
	const char *s, *e;

	if (strnlen(text, KIFU_RECORD_MAX_MOVE + 1) <= KIFU_RECORD_MAX_MOVE)
		return 0;
	for (s = text; *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'; s++)
		;
	for (e = s + strlen(s);
	     e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'); e--)
		;
	*start = s;
	return (size_t)(e - s) > KIFU_RECORD_MAX_MOVE;
}

static void check_extras(struct check *c, const struct kifu_game *g, const void *state,
			 const struct kifu_turn *t, int main_ply, int ply, char *path, size_t plen);

/*
 * Replays a line from before (the position before the move it replaces,
 * whose ply is ply) with the main line's checks; a problem ends this
 * line's replay only.
 */
static void check_line(struct check *c, const struct kifu_game *g, const void *before,
		       const struct kifu_line *line, int main_ply, int ply, char *path, size_t plen)
{
	void *state = malloc(g->state_size);
	struct kifu_error merr;
	size_t k;

	if (!state) {
		c->failed = 1;
		return;
	}
	memcpy(state, before, g->state_size);
	kifu_error_clear(&merr);
	for (k = 0; k < line->nturns; k++, ply++) {
		const struct kifu_turn *t = &line->turns[k];
		struct kifu_outcome oc;
		const char *s;
		kifu_move m;

		if (!t->text)
			break; /* a broken turn, reported by the reader */
		if (too_long(t->text, &s)) {
			report_path(c, main_ply, path, ply, t->at, "unparsable move '%.40s...': too long",
				    s);
			break;
		}
		if (g->parse_move(state, t->text, &m, &merr) < 0) {
			g->outcome(state, &oc);
			if (oc.status != KIFU_ONGOING)
				report_path(c, main_ply, path, ply, t->at,
					    "move after the end of the game");
			else
				report_path(c, main_ply, path, ply, t->at, "%s", merr.message);
			break;
		}
		keep_xtext(c, g, state, m);
		if (t->eval || t->nlines)
			check_extras(c, g, state, t, main_ply, ply, path, plen);
		g->apply(state, m);
	}
	free(state);
}

/*
 * The eval and the lines of turn t, played at ply from state (the position
 * before it); path (plen bytes, room for KIFU_RECORD_MAX_LEVELS levels)
 * names the line t is in, "" on the main line.
 */
static void check_extras(struct check *c, const struct kifu_game *g, const void *state,
			 const struct kifu_turn *t, int main_ply, int ply, char *path, size_t plen)
{
	size_t j, size = KIFU_RECORD_MAX_LEVELS * 32;

	if (t->eval && t->eval->best) {
		struct kifu_error merr;
		kifu_move m;

		kifu_error_clear(&merr);
		if (g->parse_move(state, t->eval->best, &m, &merr) < 0)
			report_path(c, main_ply, path, path[0] ? ply : 0, t->eval->best_at,
				    "'best' of 'eval': %s", merr.message);
		else
			keep_xtext(c, g, state, m);
	}
	for (j = 0; j < t->nlines; j++) {
		if (plen == 0)
			snprintf(path, size, "line %zu", j + 1);
		else
			snprintf(path + plen, size - plen, ", ply %d, line %zu", ply, j + 1);
		check_line(c, g, state, &t->lines[j], main_ply, ply, path, strlen(path));
		path[plen] = '\0';
	}
}

static void check_date(struct check *c, unsigned flags)
{
	const struct kifu_record *rec = c->rec;
	const char *s = rec->date;
	struct kifu_mark at = rec->value_at[KIFU_KEY_DATE];
	int y, m, d, ret;
	char buf[CLIP + 4];

	ret = kifu_date_parse(&y, &m, &d, s);
	if (ret == KIFU_EPARSE) {
		report(c, KIFU_DIAG_ERROR, 0, at, "'date' must be YYYY, YYYY-MM or YYYY-MM-DD, not '%s'",
		       clip(s, buf));
		return;
	}
	if (ret < 0) {
		report(c, KIFU_DIAG_ERROR, 0, at, "'date' is not a calendar date: '%s'", s);
		return;
	}
	if (!(flags & KIFU_VALIDATE_NO_CLOCK)) {
		time_t now = time(NULL);
		struct tm tm;

		if (localtime_r(&now, &tm)) {
			long today = (tm.tm_year + 1900L) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;

			if ((long)y * 10000 + m * 100 + d > today)
				report(c, KIFU_DIAG_WARNING, 0, at, "'date' is in the future: '%s'", s);
		}
	}
}

static void check_players(struct check *c, const struct kifu_game *g)
{
	const struct kifu_record *rec = c->rec;
	char list[256], buf[CLIP + 4];
	size_t i, j;

	for (i = 0; i < rec->nplayers; i++) {
		const struct kifu_record_player *p = &rec->players[i];

		if (g && kifu_game_side_index(g, p->side) < 0) {
			join(list, sizeof(list), g->sides, NULL);
			report(c, KIFU_DIAG_ERROR, 0, p->at, "unknown side '%s' in 'players' (%s has %s)",
			       clip(p->side, buf), g->name, list);
		}
		if (!p->name)
			continue;
		for (j = 0; j < i; j++)
			if (rec->players[j].name && !strcmp(rec->players[j].name, p->name)) {
				report(c, KIFU_DIAG_WARNING, 0, p->at, "player '%s' is listed twice",
				       clip(p->name, buf));
				break;
			}
	}
}

static int grow_replay(struct kifu_replay *rp, size_t n, unsigned flags)
{
	if (n + 1 > rp->cap_ || (flags & KIFU_VALIDATE_TEXT && !rp->canonical && n) ||
	    (flags & KIFU_VALIDATE_CANON && !rp->canon)) {
		size_t cap = rp->cap_ ? rp->cap_ : 64;
		void *p;

		while (cap < n + 1)
			cap *= 2;
		p = realloc(rp->moves, cap * sizeof(*rp->moves));
		if (!p)
			return -1;
		rp->moves = p;
		p = realloc(rp->hashes, cap * sizeof(*rp->hashes));
		if (!p)
			return -1;
		rp->hashes = p;
		if (flags & KIFU_VALIDATE_TEXT || rp->canonical) {
			p = realloc(rp->canonical, cap * KIFU_MOVE_TEXT_MAX);
			if (!p)
				return -1;
			rp->canonical = p;
		}
		if (flags & KIFU_VALIDATE_CANON || rp->canon) {
			p = realloc(rp->canon, cap * sizeof(*rp->canon));
			if (!p)
				return -1;
			rp->canon = p;
			p = realloc(rp->syms, cap);
			if (!p)
				return -1;
			rp->syms = p;
		}
		rp->cap_ = cap;
	}
	return 0;
}

static const char *side_or_draw(const struct kifu_game *g, const struct kifu_outcome *oc)
{
	return oc->status == KIFU_DRAW ? "draw" : g->sides[oc->winner];
}

/* KIFU_VALIDATE_CANON: the canonical hash of the position at ply, kept; -1 when out of memory. */
static int keep_canon(struct check *c, struct kifu_replay *rp, const struct kifu_game *g, size_t ply)
{
	int sym = 0;

	if (kifu_game_canonical_hash(&rp->canon[ply], &sym, g, rp->state) < 0) {
		c->failed = 1;
		return -1;
	}
	rp->syms[ply] = (unsigned char)sym;
	rp->ncanon = ply + 1;
	return 0;
}

/* Replays the turns; returns 1 when every one was played. */
static int replay_moves(struct check *c, struct kifu_replay *rp, const struct kifu_game *g,
			unsigned flags, struct kifu_error *err)
{
	const struct kifu_record *rec = c->rec;
	struct kifu_error merr;
	size_t i;
	int cells, branching = (flags & KIFU_VALIDATE_BRANCHING) != 0;

	if (grow_replay(rp, rec->nturns, flags) < 0) {
		c->failed = 1;
		return 0;
	}
	if (g->state_size > rp->state_cap_) {
		void *s = realloc(rp->state, g->state_size);

		if (!s) {
			c->failed = 1;
			return 0;
		}
		rp->state = s;
		rp->state_cap_ = g->state_size;
	}
	kifu_error_clear(&merr);
	if (g->init(rp->state, rp->variant, rp->first, &merr) < 0) {
		report(c, KIFU_DIAG_ERROR, 0, rec->at, "%s", merr.message);
		return 0;
	}
	rp->game = g;
	rp->hashes[0] = g->hash(rp->state);
	if ((flags & KIFU_VALIDATE_CANON) && keep_canon(c, rp, g, 0) < 0)
		return 0;
	cells = (flags & KIFU_VALIDATE_CELLS) && g->ncells;
	if (cells) {
		memset(rp->cells, 0, sizeof(rp->cells));
		kifu_pattern_summary_add(rp->cells, g, rp->state);
		rp->cells_plies = 1;
	}
	/* legal_moves needs room for a position's moves: count_moves does not. */
	if (branching && !g->count_moves && rp->legal_cap_ < g->max_moves) {
		kifu_move *b = realloc(rp->legal_buf_, g->max_moves * sizeof(*b));

		if (!b) {
			c->failed = 1;
			return 0;
		}
		rp->legal_buf_ = b;
		rp->legal_cap_ = g->max_moves;
	}
	for (i = 0; i < rec->nturns; i++) {
		const struct kifu_turn *t = &rec->turns[i];
		int ply = (int)i + 1;
		struct kifu_outcome oc;
		kifu_move m;
		const char *s;

		if (!t->text)
			return 0; /* a broken turn, reported by the reader */
		if (too_long(t->text, &s)) {
			report(c, KIFU_DIAG_ERROR, ply, t->at, "unparsable move '%.40s...': too long", s);
			return 0;
		}
		/*
		 * No move is legal where the rules ended the game, so the position
		 * is asked whether it is over only when a move fails.
		 */
		if (g->parse_move(rp->state, t->text, &m, &merr) < 0) {
			g->outcome(rp->state, &oc);
			if (oc.status != KIFU_ONGOING)
				report(c, KIFU_DIAG_ERROR, ply, t->at, "move after the end of the game");
			else
				report(c, KIFU_DIAG_ERROR, ply, t->at, "%s", merr.message);
			return 0;
		}
		if (t->eval || t->nlines) {
			char path[KIFU_RECORD_MAX_LEVELS * 32] = "";

			check_extras(c, g, rp->state, t, ply, ply, path, 0);
		}
		if (rp->canonical)
			g->format_move(rp->state, m, rp->canonical + i * KIFU_MOVE_TEXT_MAX);
		if (branching) {
			rp->legal += g->count_moves ? g->count_moves(rp->state)
						    : g->legal_moves(rp->state, rp->legal_buf_);
			rp->legal_plies = i + 1;
		}
		g->apply(rp->state, m);
		rp->moves[i] = m;
		rp->hashes[i + 1] = g->hash(rp->state);
		rp->nplies = i + 1;
		if ((flags & KIFU_VALIDATE_CANON) && keep_canon(c, rp, g, i + 1) < 0)
			return 0;
		if (cells) {
			kifu_pattern_summary_add(rp->cells, g, rp->state);
			rp->cells_plies = i + 2;
		}
	}
	(void)err;
	return 1;
}

static void check_result(struct check *c, const struct kifu_game *g, const struct kifu_replay *rp,
			 int result, int term)
{
	const struct kifu_record *rec = c->rec;
	const struct kifu_outcome *oc = &rp->outcome;
	int ended = oc->status != KIFU_ONGOING;
	int stated_term = term != T_NONE;
	struct kifu_mark at = rec->present & (1u << KIFU_KEY_RESULT) ? rec->value_at[KIFU_KEY_RESULT]
			      : rec->present & (1u << KIFU_KEY_TERMINATION)
				      ? rec->value_at[KIFU_KEY_TERMINATION]
				      : rec->at;
	const char *rname = result >= 0 ? g->sides[result] : result == R_DRAW ? "draw" : "unfinished";
	const char *dflt = rec->present & (1u << KIFU_KEY_RESULT) ? "" : " (the default)";

	if (term == T_NONE && result != R_UNFINISHED)
		term = T_RULES;
	switch (term) {
	case T_RULES:
		if (!ended) {
			if (stated_term)
				report(c, KIFU_DIAG_ERROR, 0, at,
				       "termination 'rules' does not agree with the replay: the rules "
				       "have not ended the game");
			else
				report(c, KIFU_DIAG_ERROR, 0, at,
				       "result '%s' does not agree with the replay: the rules have not "
				       "ended the game (say how it ended with 'termination')", rname);
		} else if (result == R_UNFINISHED || (result == R_DRAW) != (oc->status == KIFU_DRAW) ||
			   (result >= 0 && result != oc->winner)) {
			report(c, KIFU_DIAG_ERROR, 0, at,
			       "result '%s'%s does not agree with the replay: the rules give '%s'", rname,
			       dflt, side_or_draw(g, oc));
		}
		break;
	case T_NONE: /* unfinished */
		if (ended)
			report(c, KIFU_DIAG_ERROR, 0, at,
			       "result '%s'%s does not agree with the replay: the rules give '%s'", rname,
			       dflt, side_or_draw(g, oc));
		break;
	default:
		if (ended)
			report(c, KIFU_DIAG_ERROR, 0, at,
			       "termination '%s' does not agree with the replay: the rules ended the "
			       "game and give '%s'", term_names[term], side_or_draw(g, oc));
		break;
	}
}

/* Checks result against termination alone (no replay needed). */
static void check_pairing(struct check *c, int result, int term)
{
	const struct kifu_record *rec = c->rec;
	struct kifu_mark at = rec->present & (1u << KIFU_KEY_RESULT) ? rec->value_at[KIFU_KEY_RESULT]
								    : rec->value_at[KIFU_KEY_TERMINATION];
	const char *rname = result == R_DRAW ? "draw" : result == R_UNFINISHED ? "unfinished" : NULL;

	if ((term == T_RESIGNATION || term == T_TIMEOUT) && result < 0)
		report(c, KIFU_DIAG_ERROR, 0, at,
		       "result '%s' does not go with termination '%s': it needs the winning side",
		       rname, term_names[term]);
	else if (term == T_ABANDONED && result != R_UNFINISHED)
		report(c, KIFU_DIAG_ERROR, 0, at,
		       "result '%s' does not go with termination 'abandoned': it needs 'unfinished'",
		       result >= 0 ? rec->result : rname);
	else if (term == T_AGREEMENT && result == R_UNFINISHED)
		report(c, KIFU_DIAG_ERROR, 0, at,
		       "result 'unfinished' does not go with termination 'agreement': it needs 'draw' "
		       "or the winning side");
}

int kifu_record_validate(struct kifu_replay *rp, struct kifu_diags *diags,
			 const struct kifu_record *rec, unsigned flags, struct kifu_error *err)
{
	struct kifu_replay local = KIFU_REPLAY_INIT;
	struct check c;
	const struct kifu_game *g = NULL;
	char list[512], buf[CLIP + 4];
	size_t start = diags->n;
	int result = R_UNFINISHED, term = T_NONE, vi = -1, fi = -1, errors0, paired_ok = 1;
	unsigned present = rec->present;

	while (start > 0 && diags->v[start - 1].game == rec->number)
		start--;
	if (!rp)
		rp = &local;
	rp->game = NULL;
	rp->variant = -1;
	rp->first = -1;
	rp->complete = 0;
	rp->nplies = 0;
	rp->ncanon = 0;
	rp->cells_plies = 0;
	rp->legal = 0;
	rp->legal_plies = 0;
	rp->outcome.status = KIFU_ONGOING;
	rp->outcome.winner = -1;
	rp->nfigures = 0;
	rp->nx = 0;
	c.rec = rec;
	c.diags = diags;
	c.failed = 0;
	c.rp = rp;
	c.flags = flags;
	c.line_errors = 0;
	if (rec->flags & (KIFU_RECORD_SYNTAX_ERROR | KIFU_RECORD_NOT_A_GAME))
		goto out;

	if (present & (1u << KIFU_KEY_FORMAT) && rec->format != 1 && rec->format != 2)
		report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_FORMAT],
		       "unsupported record format '%ld' (kifu reads formats 1 and 2)", rec->format);
	else if (rec->format == 1)
		check_format2_keys(&c);

	if (!(present & (1u << KIFU_KEY_GAME))) {
		report(&c, KIFU_DIAG_ERROR, 0, rec->at, "missing key 'game'");
	} else if (rec->game) {
		g = kifu_game_find(rec->game);
		if (!g) {
			const struct kifu_game *const *gg;
			struct kifu_near near;
			size_t n = 0;

			list[0] = '\0';
			kifu_near_init(&near, rec->game);
			for (gg = kifu_games; *gg && n < sizeof(list); gg++) {
				kifu_near_add(&near, (*gg)->name);
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
						      gg == kifu_games ? "" : ", ", (*gg)->name);
			}
			if (kifu_near_best(&near))
				report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_GAME],
				       "unknown game '%s' (did you mean '%s'?)", clip(rec->game, buf),
				       kifu_near_best(&near));
			else
				report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_GAME],
				       "unknown game '%s' (known games: %s)", clip(rec->game, buf),
				       list);
		}
	}
	if (g) {
		if (rec->variant) {
			vi = kifu_game_variant_index(g, rec->variant);
			if (vi < 0) {
				struct kifu_near near;
				int v;

				kifu_near_init(&near, rec->variant);
				for (v = 0; g->variants[v]; v++)
					kifu_near_add(&near, g->variants[v]);
				join(list, sizeof(list), g->variants, NULL);
				if (kifu_near_best(&near))
					report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_VARIANT],
					       "unknown variant '%s' of %s (did you mean '%s'?)",
					       clip(rec->variant, buf), g->name, kifu_near_best(&near));
				else
					report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_VARIANT],
					       "unknown variant '%s' of %s (%s has %s)",
					       clip(rec->variant, buf), g->name, g->name, list);
			}
		} else if (!(present & (1u << KIFU_KEY_VARIANT))) {
			vi = 0;
		}
	}
	if (rec->date)
		check_date(&c, flags);
	check_players(&c, g);

	if (!(present & (1u << KIFU_KEY_FIRST))) {
		fi = 0;
	} else if (g && !(g->flags & KIFU_GAME_CHOOSE_FIRST)) {
		report(&c, KIFU_DIAG_ERROR, 0, rec->key_at[KIFU_KEY_FIRST],
		       "'first' is not allowed in %s (%s moves first)", g->name, g->sides[0]);
		fi = 0; /* the game's own order: the moves can still be checked */
	} else if (g && rec->first) {
		fi = kifu_game_side_index(g, rec->first);
		if (fi < 0) {
			join(list, sizeof(list), g->sides, NULL);
			report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_FIRST],
			       "unknown side '%s' in 'first' (%s has %s)", clip(rec->first, buf),
			       g->name, list);
		}
	}

	if (present & (1u << KIFU_KEY_RESULT)) {
		if (!rec->result)
			result = R_BAD;
		else if (!strcmp(rec->result, "draw"))
			result = R_DRAW;
		else if (!strcmp(rec->result, "unfinished"))
			result = R_UNFINISHED;
		else if (g && (result = kifu_game_side_index(g, rec->result)) >= 0)
			;
		else {
			result = R_BAD;
			if (g) {
				join(list, sizeof(list), g->sides, "draw, unfinished");
				report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_RESULT],
				       "unknown result '%s' (%s has %s)", clip(rec->result, buf),
				       g->name, list);
			}
		}
	}
	if (present & (1u << KIFU_KEY_TERMINATION)) {
		term = T_BAD;
		if (rec->termination) {
			int t;

			for (t = T_RULES; term_names[t]; t++)
				if (!strcmp(rec->termination, term_names[t]))
					term = t;
			if (term == T_BAD) {
				join(list, sizeof(list), term_names + 1, NULL);
				report(&c, KIFU_DIAG_ERROR, 0, rec->value_at[KIFU_KEY_TERMINATION],
				       "unknown termination '%s' (one of %s)",
				       clip(rec->termination, buf), list);
			}
		}
	}
	if (result != R_BAD && term != T_BAD && term != T_NONE) {
		errors0 = diags->errors;
		check_pairing(&c, result, term);
		paired_ok = diags->errors == errors0;
	}

	if (!(present & (1u << KIFU_KEY_MOVES)))
		report(&c, KIFU_DIAG_ERROR, 0, rec->at, "missing key 'moves'");
	else if (g && vi >= 0 && fi >= 0) {
		rp->variant = vi;
		rp->first = fi;
		int main_ok;

		errors0 = diags->errors;
		c.line_errors = 0;
		main_ok = replay_moves(&c, rp, g, flags, err) &&
			  !(rec->flags & KIFU_RECORD_TRUNCATED) &&
			  diags->errors == errors0 + c.line_errors;
		rp->complete = main_ok && diags->errors == errors0;
		if (rp->game) {
			g->outcome(rp->state, &rp->outcome);
			rp->nfigures = g->figures ? g->figures(rp->state, rp->figures) : 0;
		}
		/*
		 * A record whose main-line moves are all legal is checked against
		 * its result, also when one of its lines is not (RECORDS.md).
		 */
		if (main_ok && result != R_BAD && term != T_BAD && paired_ok)
			check_result(&c, g, rp, result, term);
	}
out:
	if (rp == &local)
		kifu_replay_release(&local);
	kifu_diags_sort(diags, start);
	if (c.failed || diags->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "validating game %d: out of memory",
				      rec->number);
	return 0;
}
