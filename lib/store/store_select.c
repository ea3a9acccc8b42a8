/*
 * Reading the game database back: the filters that kifu-stats, kifu-search
 * and kifu-export share (turned into an SQL expression with numbered
 * parameters, so that user text never becomes SQL), listing the selected
 * games newest first, and rebuilding a stored game as a struct
 * kifu_record that the record writer and validator take as they would a
 * parsed one.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "store/store_impl.h"

/* ---- Filters ---- */

/* The filter's fields in the order their parameters are numbered. */
enum { F_GAME, F_VARIANT, F_PLAYER, F_EVENT, F_SINCE, F_UNTIL, F_TERMINATION, F_LEVEL, F_COUNT };

static const char *field(const struct kifu_filter *f, int k)
{
	switch (k) {
	case F_GAME: return f->game;
	case F_VARIANT: return f->variant;
	case F_PLAYER: return f->player;
	case F_EVENT: return f->event;
	case F_SINCE: return f->since;
	case F_UNTIL: return f->until;
	case F_TERMINATION: return f->termination;
	case F_LEVEL: return f->level;
	}
	return NULL;
}

size_t kifu_store_spec_length(const char *name)
{
	size_t p = 0, d;

	if (!strncmp(name, "random", 6)) {
		p = 6;
	} else if (!strncmp(name, "mcts:", 5)) {
		for (d = 5; name[d] >= '0' && name[d] <= '9'; d++)
			;
		if (d == 5)
			return 0;
		p = d;
	} else if (!strncmp(name, "engine", 6)) {
		p = 6;
		if (name[p] == ':') {
			for (d = p + 1; name[d] >= '0' && name[d] <= '9'; d++)
				;
			if (d == p + 1)
				return 0;
			p = d;
		}
	} else {
		return 0;
	}
	if (name[p] != ' ' || name[p + 1] != '#')
		return 0;
	for (d = p + 2; name[d] >= '0' && name[d] <= '9'; d++)
		;
	return d > p + 2 && !name[d] ? p : 0;
}

int kifu_store_level_valid(const char *level)
{
	char name[80];

	if (!strcmp(level, "players"))
		return 1;
	if (strlen(level) + 3 >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%s #1", level);
	return kifu_store_spec_length(name) == strlen(level);
}

/* kifu_store_spec_length's grammar in SQL (store_impl.h) */
static const char spec_player_sql[] = KIFU_STORE_SPEC_PLAYER_SQL_;

/*
 * The level filter on the games under alias a: SPEC (its "SPEC #" bound
 * to ?p): as many sides with a player "SPEC #digits" as the game has
 * sides (one player a side: the sides' key); players: no side's player
 * a SPEC player.
 */
static void level_sql(struct kifu_buf *out, const char *level, const char *a, int p)
{
	int k;

	if (!strcmp(level, "players")) {
		kifu_buf_printf(out, "NOT EXISTS (SELECT 1 FROM sides ls JOIN players lp ON "
				"lp.id = ls.player_id WHERE ls.game_id = %s.id AND %s)", a,
				spec_player_sql);
		return;
	}
	kifu_buf_printf(out, "(SELECT count(*) FROM sides ls JOIN players lp ON lp.id = "
			"ls.player_id WHERE ls.game_id = %s.id AND substr(lp.name, 1, %zu) = ?%d "
			"AND " KIFU_STORE_ALL_DIGITS_SQL_("substr(lp.name, %zu)") ") = CASE %s.game", a,
			strlen(level) + 2, p, strlen(level) + 3, strlen(level) + 3, a);
	/* the games' sides from the registry (names and counts are the code's, not the user's) */
	for (k = 0; kifu_games[k]; k++)
		kifu_buf_printf(out, " WHEN '%s' THEN %d", kifu_games[k]->name,
				kifu_games[k]->nsides);
	kifu_buf_puts(out, " ELSE -1 END");
}

static int is_identifier(const char *s)
{
	size_t i;

	if (!s[0] || strlen(s) > 64 || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

int kifu_filter_sql_(struct kifu_buf *out, const struct kifu_filter *f, const char *games_alias,
		    int first, struct kifu_error *err)
{
	const char *a = games_alias ? games_alias : "games";
	char day[11];
	int k, n = 0, clauses = 0;

	if (!is_identifier(a))
		return kifu_error_set(err, KIFU_ERANGE, "'%s' is not an SQL alias", a);
	for (k = 0; f && k < F_COUNT; k++) {
		int p = first + n;

		if (!field(f, k))
			continue;
		if ((k == F_SINCE || k == F_UNTIL) && kifu_date_first_day(day, field(f, k), err) < 0)
			return KIFU_EPARSE;
		if (k == F_LEVEL && !kifu_store_level_valid(f->level))
			return kifu_error_set(err, KIFU_EPARSE, "unknown level '%s'", f->level);
		kifu_buf_puts(out, clauses++ ? " AND " : "(");
		switch (k) {
		case F_GAME: kifu_buf_printf(out, "%s.game = ?%d", a, p); break;
		case F_VARIANT: kifu_buf_printf(out, "%s.variant = ?%d", a, p); break;
		case F_PLAYER:
			kifu_buf_printf(out, "%s.id IN (SELECT s.game_id FROM sides s JOIN players p "
				        "ON p.id = s.player_id WHERE p.name = ?%d", a, p);
			/* the side's parameter follows the player's */
			if (f->player_side)
				kifu_buf_printf(out, " AND s.side = ?%d", first + ++n);
			kifu_buf_puts(out, ")");
			break;
		case F_EVENT: kifu_buf_printf(out, "%s.event = ?%d", a, p); break;
		/* A NULL date compares as NULL: undated games drop out, as they should. */
		case F_SINCE: kifu_buf_printf(out, "%s.date_first >= ?%d", a, p); break;
		case F_UNTIL: kifu_buf_printf(out, "%s.date_first <= ?%d", a, p); break;
		case F_TERMINATION: kifu_buf_printf(out, "%s.termination = ?%d", a, p); break;
		case F_LEVEL:
			level_sql(out, f->level, a, p);
			/* players binds nothing */
			if (!strcmp(f->level, "players"))
				continue;
			break;
		}
		n++;
	}
	kifu_buf_puts(out, clauses ? ")" : "1 = 1");
	if (out->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	return n;
}

int kifu_filter_bind_(struct kifu_stmt *stmt, int first, const struct kifu_filter *f,
		     struct kifu_error *err)
{
	char day[11];
	int k, n = 0, rc;

	for (k = 0; f && k < F_COUNT; k++) {
		const char *v = field(f, k);

		if (!v)
			continue;
		if (k == F_SINCE || k == F_UNTIL) {
			/*
			 * Records' dates are kept as their first days; a filter's
			 * partial date covers its whole period (CLI.md): since from
			 * its first day, until to its last
			 */
			if ((k == F_SINCE ? kifu_date_first_day(day, v, err)
					  : kifu_date_last_day(day, v, err)) < 0)
				return KIFU_EPARSE;
			rc = kifu_db_bind_text_(stmt, first + n, day, -1);
		} else if (k == F_LEVEL) {
			char prefix[80];

			if (!strcmp(v, "players"))
				continue;
			snprintf(prefix, sizeof(prefix), "%s #", v);
			rc = kifu_db_bind_text_(stmt, first + n, prefix, -1);
		} else {
			rc = kifu_db_bind_text_(stmt, first + n, v, -1);
			if (rc == 0 && k == F_PLAYER && f->player_side)
				rc = kifu_db_bind_text_(stmt, first + ++n, f->player_side, -1);
		}
		if (rc < 0)
			return kifu_error_set(err, rc, "cannot bind a filter: %s", kifu_strerror(rc));
		n++;
	}
	return n;
}

int kifu_store_game_each(struct kifu_store *st, const struct kifu_filter *f,
			 int (*fn)(int64_t id, void *ctx), void *ctx, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc;

	kifu_buf_puts(&sql, "SELECT g.id FROM games g WHERE ");
	ret = kifu_filter_sql_(&sql, f, "g", 1, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " ORDER BY g.date_first DESC NULLS LAST, g.id DESC");
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	ret = kifu_db_prepare_(&s, st, sql.data, err);
	if (ret < 0)
		goto out;
	ret = kifu_filter_bind_(s, 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		ret = fn(kifu_db_column_int64_(s, 0), ctx);
		if (ret)
			goto out;
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot select games", err);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

struct id_array {
	int64_t *v;
	size_t n, cap;
};

static int collect_id(int64_t id, void *ctx)
{
	struct id_array *a = ctx;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		int64_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = id;
	return 0;
}

int kifu_store_game_ids(int64_t **ids, size_t *n, struct kifu_store *st,
			const struct kifu_filter *f, struct kifu_error *err)
{
	struct id_array a = { NULL, 0, 0 };
	int ret = kifu_store_game_each(st, f, collect_id, &a, err);

	if (ret == KIFU_ENOMEM)
		kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret < 0) {
		free(a.v);
		a.v = NULL;
		a.n = 0;
	}
	*ids = a.v;
	*n = a.n;
	return ret < 0 ? ret : 0;
}

void kifu_store_game_ids_free(int64_t *ids)
{
	free(ids);
}

/* ---- Loading a game ---- */

static const char *col_text(struct kifu_stmt *s, int i)
{
	return kifu_db_column_text_(s, i);
}

static int tag_type(const char *name)
{
	static const char *const names[] = { "str", "null", "bool", "int", "float", "timestamp" };
	int i;

	for (i = 0; name && i < 6; i++)
		if (!strcmp(name, names[i]))
			return i;
	return KIFU_SCALAR_STR;
}

/* Runs cached statement k for game id, handing each row to fn. */
static int load_rows(struct kifu_store *st, int k, int64_t id, const char *what,
		     int (*fn)(struct kifu_record *rec, struct kifu_stmt *s, int64_t id,
			       struct kifu_error *err),
		     struct kifu_record *rec, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, k, err);
	int rc, ret = 0;

	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, id);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		ret = fn(rec, s, id, err);
		if (ret < 0)
			break;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, what, err);
	kifu_db_reset_(s);
	return ret;
}

static int load_side(struct kifu_record *rec, struct kifu_stmt *s, int64_t id,
		          struct kifu_error *err)
{
	int has_rating = !kifu_db_column_is_null_(s, 2);
	long long rating = 0;

	if (has_rating && kifu_db_column_whole_(&rating, s, 2, LONG_MIN, LONG_MAX, err,
						"sides.rating of game %lld", (long long)id) < 0)
		return KIFU_EDB;
	return kifu_record_set_player(rec, col_text(s, 0), col_text(s, 1), has_rating,
				      (long)rating, err);
}

static int load_move(struct kifu_record *rec, struct kifu_stmt *s, int64_t id,
		          struct kifu_error *err)
{
	/* a JSON null (or no text) is no move: exported, it would be '' */
	if (!col_text(s, 0) || !col_text(s, 0)[0])
		return kifu_db_damaged_(s->st, err, "game_moves.moves of game %lld has %s at ply %zu",
					(long long)id, col_text(s, 0) ? "''" : "null", rec->nturns + 1);
	return kifu_record_add_turn(rec, col_text(s, 0), col_text(s, 1), col_text(s, 2), err);
}

static int load_tag(struct kifu_record *rec, struct kifu_stmt *s, int64_t id,
		         struct kifu_error *err)
{
	(void)id; /* the same signature as load_move's */
	return kifu_record_add_tag(rec, col_text(s, 0), col_text(s, 1), tag_type(col_text(s, 2)),
				   err);
}

/* The game's headers into rec, and *plies the number of moves the game has. */
static int load_headers(struct kifu_record *rec, int64_t *plies, struct kifu_store *st,
			struct kifu_stmt *s, int64_t id, struct kifu_error *err)
{
	static const int keys[] = { KIFU_KEY_GAME, KIFU_KEY_VARIANT, KIFU_KEY_FIRST,
				    KIFU_KEY_EVENT, KIFU_KEY_SITE, KIFU_KEY_ROUND, KIFU_KEY_DATE,
				    KIFU_KEY_ANNOTATOR, KIFU_KEY_SOURCE, KIFU_KEY_RESULT,
				    KIFU_KEY_TERMINATION };
	const struct kifu_game *g;
	long long n = 0;
	int rc, ret = 0, i;

	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_DONE) {
		kifu_error_at(err, st->path, 0, 0);
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "database '%s' has no game %lld", st->path,
				     (long long)id);
		goto out;
	}
	if (rc != KIFU_DB_ROW) {
		ret = kifu_store_fail_(st, "cannot load a game", err);
		goto out;
	}
	g = kifu_game_find(col_text(s, 0));
	ret = kifu_db_column_whole_(&n, s, 11, 0, KIFU_DB_PLIES_MAX, err, "games.plies of game %lld",
				    (long long)id);
	if (ret == 0)
		ret = kifu_db_column_date_(s, 6, 12, err, "games.date of game %lld", (long long)id);
	*plies = n;
	for (i = 0; i < (int)(sizeof(keys) / sizeof(keys[0])) && ret == 0; i++) {
		/*
		 * `first` is part of a record only where the players may choose
		 * it, and says something only when it is not the default.
		 */
		if (keys[i] == KIFU_KEY_FIRST &&
		    (!g || !(g->flags & KIFU_GAME_CHOOSE_FIRST) ||
		     !strcmp(col_text(s, i) ? col_text(s, i) : "", g->sides[0])))
			continue;
		if (!kifu_db_column_is_null_(s, i))
			ret = kifu_record_set(rec, keys[i], col_text(s, i), err);
	}
out:
	kifu_db_reset_(s);
	return ret;
}

int kifu_store_game_load(struct kifu_record **out, struct kifu_store *st, int64_t id,
			 struct kifu_error *err)
{
	struct kifu_record *rec = NULL;
	struct kifu_stmt *s;
	int64_t plies = 0;
	int ret;

	*out = NULL;
	ret = kifu_record_new(&rec, err);
	if (ret < 0)
		return ret;
	s = kifu_store_stmt_(st, ST_LOAD_GAME, err);
	if (!s) {
		ret = err ? err->code : KIFU_EDB;
		goto out;
	}
	kifu_db_bind_int64_(s, 1, id);
	ret = load_headers(rec, &plies, st, s, id, err);
	if (ret < 0)
		goto out;
	ret = load_rows(st, ST_LOAD_SIDES, id, "cannot load a game's players", load_side, rec, err);
	if (ret == 0)
		ret = load_rows(st, ST_LOAD_MOVES, id, "cannot load a game's moves", load_move, rec,
				err);
	/* its moves missing (a game_moves row), the game would seem to break its own rules */
	if (ret == 0 && (int64_t)rec->nturns != plies)
		ret = kifu_db_damaged_(st, err, "game %lld has %zu of its %lld moves",
				      (long long)id, rec->nturns, (long long)plies);
	/* An empty move list is still a `moves` key. */
	rec->present |= 1u << KIFU_KEY_MOVES;
	if (ret == 0)
		ret = kifu_store_lines_load_(rec, st, id, err);
	if (ret == 0)
		ret = load_rows(st, ST_LOAD_TAGS, id, "cannot load a game's tags", load_tag, rec, err);
out:
	if (ret < 0) {
		kifu_record_free(rec);
		return ret;
	}
	*out = rec;
	return 0;
}

int kifu_store_game_validate(struct kifu_replay *rp, struct kifu_diags *diags,
			     struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			     struct kifu_error *err)
{
	const char *msg;
	size_t i;
	int ret = kifu_record_validate(rp, diags, rec, KIFU_VALIDATE_TEXT, err);

	for (i = 0; ret == 0 && i < diags->n; i++) {
		if (diags->v[i].severity != KIFU_DIAG_ERROR)
			continue;
		/* "game K, ply P: ...": K counts games in a file; the database's is its id */
		msg = diags->v[i].message ? diags->v[i].message : "";
		if (!strncmp(msg, "game ", 5) && msg[5] >= '0' && msg[5] <= '9') {
			msg += 5 + strspn(msg + 5, "0123456789");
			msg += *msg == ',' || *msg == ':' ? 1 : 0;
			msg += *msg == ' ' ? 1 : 0;
		}
		return kifu_db_damaged_(st, err, "game %lld does not replay as stored: %s",
					(long long)id, msg);
	}
	if (ret == 0 && diags->errors)
		ret = kifu_db_damaged_(st, err, "game %lld does not replay as stored", (long long)id);
	return ret;
}
