/*
 * The PostgreSQL backend's ids of new games and players, taken on the
 * client (pg.c runs the statements, pg_load.c groups the games): a group
 * of games holds the games' lock exclusively (no other writer adds a game
 * or a player meanwhile), so a writer that knows every stored game's
 * content_hash and every player's name, and the highest ids, can tell a
 * duplicate and give the next id itself, as SQLite does (the highest id
 * plus one), without asking the server a game at a time. Those are read
 * once per connection (at its first group; from its second group on when
 * the games table is large, so that a short import into a large database
 * pays nothing) and then, at each group's start, only the rows other writers
 * added since (ids above the highest known: one round trip a table a
 * group, by COPY). The statements of libkifu that this answers: the games
 * row's insert (a duplicate stores nothing and returns no id; a new game
 * is sent with its id, without waiting, and the id returned at once), the
 * look-up of a game by its key, and a player's look-up and insert. A
 * write rolled back to its savepoint gives back what it took; a
 * transaction rolled back forgets everything (read again at the next
 * group). At the commit the sequences are set to the highest ids, for
 * the writers that take theirs from them (a game in a transaction of its
 * own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/backends/pg_impl.h"
#include "store/store_impl.h"
#include "util/hash.h"

/*
 * A games table up to this size (about 200,000 games) is read at a
 * connection's first group; a larger one from its second group on.
 */
#define EAGER_BYTES (32LL << 20)

/* int8's OID (pg_type.h): the type of the id column answered here. */
#define INT8OID 20

/* A game's key and id; id 0: none (given back by a rollback: the slot stays used). */
struct gslot {
	uint64_t key;
	int64_t id;
	int used;
};

/* What a write took: a game's key, or a player's name (its slot's own copy). */
struct undo {
	uint64_t key;
	const char *name;
};

/* A player's name and id; id 0 as above. */
struct pslot {
	char *name;
	int64_t id;
};

struct kifu_pg_ids_ {
	int loaded;          /* the tables hold every game and player with an id up to the highest */
	int on;              /* loaded and the open group's lock held: the statements answered here */
	long groups;         /* groups begun on this connection */
	int64_t game_max, player_max;   /* the highest ids known (stored, or taken here) */
	int64_t sp_game, sp_player;     /* at the savepoint of the write in progress */
	int64_t set_game, set_player;   /* taken by the open transaction: the sequences follow */
	struct gslot *g;
	size_t gcap, gn;
	struct pslot *p;
	size_t pcap, pn;
	/* What the write in progress took (given back by a rollback to its savepoint). */
	struct undo *undo;
	size_t nundo, undocap;
};

/* ---- Tables: open addressing, linear probing, at most half full ---- */

static uint64_t name_hash(const char *name, size_t len)
{
	return kifu_hash_mix64_(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, name, len));
}

static size_t gfind(const struct kifu_pg_ids_ *t, uint64_t key)
{
	size_t k = (size_t)kifu_hash_mix64_(key) & (t->gcap - 1);

	while (t->g[k].used && t->g[k].key != key)
		k = (k + 1) & (t->gcap - 1);
	return k;
}

static size_t pfind(const struct kifu_pg_ids_ *t, const char *name, size_t len)
{
	size_t k = (size_t)name_hash(name, len) & (t->pcap - 1);

	while (t->p[k].name && (strlen(t->p[k].name) != len || memcmp(t->p[k].name, name, len)))
		k = (k + 1) & (t->pcap - 1);
	return k;
}

/* Grows a table to hold one more, built again without the slots given back. */
static int ggrow(struct kifu_pg_ids_ *t)
{
	struct gslot *old = t->g;
	size_t i, cap = t->gcap;

	if (t->gcap && 2 * (t->gn + 1) <= t->gcap)
		return 0;
	t->gcap = cap ? 2 * cap : 4096;
	t->g = calloc(t->gcap, sizeof(*t->g));
	if (!t->g) {
		t->g = old;
		t->gcap = cap;
		return KIFU_ENOMEM;
	}
	t->gn = 0;
	for (i = 0; i < cap; i++)
		if (old[i].used && old[i].id) {
			t->g[gfind(t, old[i].key)] = old[i];
			t->gn++;
		}
	free(old);
	return 0;
}

static int pgrow(struct kifu_pg_ids_ *t)
{
	struct pslot *old = t->p;
	size_t i, cap = t->pcap;

	if (t->pcap && 2 * (t->pn + 1) <= t->pcap)
		return 0;
	t->pcap = cap ? 2 * cap : 1024;
	t->p = calloc(t->pcap, sizeof(*t->p));
	if (!t->p) {
		t->p = old;
		t->pcap = cap;
		return KIFU_ENOMEM;
	}
	t->pn = 0;
	for (i = 0; i < cap; i++) {
		if (!old[i].name)
			continue;
		if (!old[i].id) {
			free(old[i].name);
			continue;
		}
		t->p[pfind(t, old[i].name, strlen(old[i].name))] = old[i];
		t->pn++;
	}
	free(old);
	return 0;
}

static int undo_add(struct kifu_pg_ids_ *t, uint64_t key, const char *name)
{
	if (t->nundo == t->undocap) {
		size_t cap = t->undocap ? 2 * t->undocap : 16;
		struct undo *u = realloc(t->undo, cap * sizeof(*u));

		if (!u)
			return KIFU_ENOMEM;
		t->undo = u;
		t->undocap = cap;
	}
	t->undo[t->nundo].key = key;
	t->undo[t->nundo++].name = name;
	return 0;
}

/* A game (key, id) kept; undo: given back by a rollback to the savepoint. */
static int gadd(struct kifu_pg_ids_ *t, uint64_t key, int64_t id, int undo)
{
	size_t k;

	if (ggrow(t) < 0)
		return KIFU_ENOMEM;
	k = gfind(t, key);
	if (!t->g[k].used)
		t->gn++;
	t->g[k].key = key;
	t->g[k].id = id;
	t->g[k].used = 1;
	if (id > t->game_max)
		t->game_max = id;
	return undo ? undo_add(t, key, NULL) : 0;
}

static int padd(struct kifu_pg_ids_ *t, const char *name, size_t len, int64_t id, int undo)
{
	size_t k;

	if (pgrow(t) < 0)
		return KIFU_ENOMEM;
	k = pfind(t, name, len);
	if (!t->p[k].name) {
		t->p[k].name = malloc(len + 1);
		if (!t->p[k].name)
			return KIFU_ENOMEM;
		memcpy(t->p[k].name, name, len);
		t->p[k].name[len] = 0;
		t->pn++;
	}
	t->p[k].id = id;
	if (id > t->player_max)
		t->player_max = id;
	return undo ? undo_add(t, 0, t->p[k].name) : 0;
}

/* Everything forgotten: read again (all of it) at a later group. */
static void forget(struct kifu_pg_ids_ *t)
{
	size_t i;

	for (i = 0; i < t->pcap; i++)
		free(t->p[i].name);
	free(t->p);
	free(t->g);
	t->p = NULL;
	t->g = NULL;
	t->pcap = t->pn = t->gcap = t->gn = 0;
	t->loaded = t->on = 0;
	t->game_max = t->player_max = 0;
	t->set_game = t->set_player = 0;
	t->nundo = 0;
}

void kifu_pg_ids_free_(struct pg_conn *c)
{
	if (!c->ids)
		return;
	forget(c->ids);
	free(c->ids->undo);
	free(c->ids);
	c->ids = NULL;
}

/* ---- Reading what is stored ---- */

static int32_t be32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

/*
 * Rows (an int8 id, then an int8 key or a text name) of COPY ... TO STDOUT
 * (FORMAT binary), each kept in the games' table (games) or the players'.
 */
static int load(struct pg_conn *c, const char *sql, int games)
{
	struct kifu_pg_ids_ *t = c->ids;
	PGresult *res = PQexec(c->pg, sql);
	char *buf;
	int n, ret = 0, first = 1;

	if (PQresultStatus(res) != PGRES_COPY_OUT) {
		ret = kifu_pg_result_fail_(c, res);
		PQclear(res);
		return ret;
	}
	PQclear(res);
	while ((n = PQgetCopyData(c->pg, &buf, 0)) > 0) {
		const unsigned char *p = (const unsigned char *)buf, *end = p + n;
		int32_t len;

		/* The header first: the signature, flags and the extension's length (0). */
		if (first) {
			first = 0;
			p += 19;
		}
		if (ret < 0 || end - p < 2 || (p[0] == 0xff && p[1] == 0xff)) {
			PQfreemem(buf);
			continue;
		}
		/* 2 fields: the id (4 + 8 bytes), then the key (4 + 8) or the name (4 + len). */
		if (end - p < 2 + 12 + 4 || be32(p + 2) != 8) {
			ret = KIFU_EDB;
		} else {
			int64_t id = (int64_t)kifu_store_get_be64_(p + 6);

			len = be32(p + 14);
			p += 18;
			if (len < 0 || end - p < len || (games && len != 8))
				ret = KIFU_EDB;
			else if (games)
				ret = gadd(t, kifu_store_get_be64_(p), id, 0);
			else
				ret = padd(t, (const char *)p, (size_t)len, id, 0);
		}
		PQfreemem(buf);
	}
	while ((res = PQgetResult(c->pg)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && ret == 0)
			ret = kifu_pg_result_fail_(c, res);
		PQclear(res);
	}
	if (n == -2 && ret == 0)
		ret = kifu_pg_result_fail_(c, NULL);
	return ret;
}

/*
 * At a group's start, its lock held: from the connection's second group
 * on, the games and players other writers added since the last read
 * (every one, the first time), and then the statements are answered here.
 */
int kifu_pg_ids_group_(struct pg_conn *c)
{
	struct kifu_pg_ids_ *t;
	char sql[160];
	int ret;

	if (!c->ids && !(c->ids = calloc(1, sizeof(*c->ids))))
		return kifu_pg_nomem_(c);
	t = c->ids;
	t->on = 0;
	ret = kifu_pg_drain_(c);
	/* The first group reads a large table only from the next one on: an import that short may be alone. */
	if (ret == 0 && ++t->groups == 1 && !t->loaded) {
		PGresult *res = PQexec(c->pg, "SELECT pg_relation_size('games')");

		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
			ret = kifu_pg_result_fail_(c, res);
			PQclear(res);
			return ret;
		}
		if (strtoll(PQgetvalue(res, 0, 0), NULL, 10) > EAGER_BYTES) {
			PQclear(res);
			return 0;
		}
		PQclear(res);
	}
	snprintf(sql, sizeof(sql), "COPY (SELECT id, content_hash FROM games WHERE id > %lld) "
		 "TO STDOUT (FORMAT binary)", (long long)t->game_max);
	if (ret == 0)
		ret = load(c, sql, 1);
	snprintf(sql, sizeof(sql), "COPY (SELECT id, name FROM players WHERE id > %lld) "
		 "TO STDOUT (FORMAT binary)", (long long)t->player_max);
	if (ret == 0)
		ret = load(c, sql, 0);
	/* The tables exist (empty ones too): the look-ups probe them. */
	if (ret == 0 && (ggrow(t) < 0 || pgrow(t) < 0))
		ret = KIFU_ENOMEM;
	if (ret < 0) {
		forget(t);
		return ret == KIFU_ENOMEM ? kifu_pg_nomem_(c) : ret;
	}
	t->loaded = t->on = 1;
	t->nundo = 0;
	return 0;
}

/* ---- The statements answered here ---- */

/* A result of one column id: one row (id), or none (id 0). */
static PGresult *id_result(struct pg_conn *c, int64_t id)
{
	char name[] = "id";
	PGresAttDesc a = { name, 0, 0, 0, INT8OID, 8, -1 };
	PGresult *r = PQmakeEmptyPGresult(c->pg, PGRES_TUPLES_OK);
	char num[24];
	int n = snprintf(num, sizeof(num), "%lld", (long long)id);

	if (!r || !PQsetResultAttrs(r, 1, &a) || (id && !PQsetvalue(r, 0, 0, num, n))) {
		PQclear(r);
		return NULL;
	}
	return r;
}

/* Sends s's insert with id (its last parameter) without waiting (pg.c's writes in a transaction). */
static int send_with_id(struct pg_conn *c, struct pg_stmt *s, int64_t id)
{
	const char *values[MAX_PARAMS + 1];
	int lengths[MAX_PARAMS + 1], formats[MAX_PARAMS + 1], i;
	char num[24];

	for (i = 0; i < s->nparams; i++) {
		values[i] = s->params[i].value;
		lengths[i] = s->params[i].len;
		formats[i] = s->params[i].binary;
	}
	snprintf(num, sizeof(num), "%lld", (long long)id);
	values[i] = num;
	lengths[i] = (int)strlen(num);
	formats[i] = 0;
	if ((PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF && PQenterPipelineMode(c->pg) != 1) ||
	    PQsendQueryPrepared(c->pg, s->idname, s->nparams + 1, values, lengths, formats, 0) != 1)
		return kifu_pg_result_fail_(c, NULL);
	c->queued++;
	return 0;
}

int kifu_pg_ids_run_(int *done, struct pg_conn *c, struct pg_stmt *s)
{
	struct kifu_pg_ids_ *t = c->ids;
	const struct pg_param *p0 = &s->params[0];
	int64_t id = 0;
	size_t k;
	int ret;

	*done = 0;
	if (!t || !t->on || !c->grouped || PQtransactionStatus(c->pg) == PQTRANS_IDLE ||
	    s->nparams < 1 || !p0->value)
		return 0;
	switch (s->ids) {
	case IDS_GAME_BY_KEY:
		k = gfind(t, (uint64_t)strtoll(p0->value, NULL, 10));
		id = t->g[k].id;
		break;
	case IDS_GAME_INSERT:
		if (s->nparams < 15 || !s->params[14].value)
			return 0;
		k = gfind(t, (uint64_t)strtoll(s->params[14].value, NULL, 10));
		/* Stored already (or written by this group): no row, as ON CONFLICT DO NOTHING. */
		if (t->g[k].id)
			break;
		id = t->game_max + 1;
		ret = gadd(t, (uint64_t)strtoll(s->params[14].value, NULL, 10), id, 1);
		if (ret == 0)
			ret = send_with_id(c, s, id);
		if (ret < 0)
			return ret == KIFU_ENOMEM ? kifu_pg_nomem_(c) : ret;
		t->set_game = id;
		break;
	case IDS_PLAYER_FIND:
		k = pfind(t, p0->value, (size_t)p0->len);
		id = t->p[k].name ? t->p[k].id : 0;
		break;
	case IDS_PLAYER_INSERT:
		k = pfind(t, p0->value, (size_t)p0->len);
		if (t->p[k].name && t->p[k].id)
			break;
		id = t->player_max + 1;
		ret = padd(t, p0->value, (size_t)p0->len, id, 1);
		if (ret == 0)
			ret = send_with_id(c, s, id);
		if (ret < 0)
			return ret == KIFU_ENOMEM ? kifu_pg_nomem_(c) : ret;
		t->set_player = id;
		break;
	default:
		return 0;
	}
	s->res = id_result(c, id);
	if (!s->res)
		return kifu_pg_nomem_(c);
	s->nrows = PQntuples(s->res);
	c->changes = s->ids == IDS_GAME_INSERT || s->ids == IDS_PLAYER_INSERT ? s->nrows : 0;
	*done = 1;
	return 0;
}

/* ---- Savepoints and transactions ---- */

void kifu_pg_ids_savepoint_(struct pg_conn *c)
{
	if (!c->ids)
		return;
	c->ids->nundo = 0;
	c->ids->sp_game = c->ids->game_max;
	c->ids->sp_player = c->ids->player_max;
}

/* The write rolled back: what it took given back, so that the next one takes the same ids. */
void kifu_pg_ids_rollback_to_(struct pg_conn *c)
{
	struct kifu_pg_ids_ *t = c->ids;
	size_t i;

	if (!t || !t->loaded)
		return;
	for (i = 0; i < t->nundo; i++) {
		const struct undo *u = &t->undo[i];

		if (u->name)
			t->p[pfind(t, u->name, strlen(u->name))].id = 0;
		else
			t->g[gfind(t, u->key)].id = 0;
	}
	t->nundo = 0;
	t->game_max = t->sp_game;
	t->player_max = t->sp_player;
	if (t->set_game > t->game_max)
		t->set_game = t->game_max;
	if (t->set_player > t->player_max)
		t->set_player = t->player_max;
}

/* Before the commit: the sequences set to the highest ids taken here. */
int kifu_pg_ids_commit_(struct pg_conn *c)
{
	struct kifu_pg_ids_ *t = c->ids;
	char sql[200];
	PGresult *res;
	int ret = 0;

	if (!t || (!t->set_game && !t->set_player))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT setval('games_id_seq', %lld, %s), "
		 "setval('players_id_seq', %lld, %s)",
		 (long long)(t->game_max > 0 ? t->game_max : 1), t->game_max > 0 ? "true" : "false",
		 (long long)(t->player_max > 0 ? t->player_max : 1),
		 t->player_max > 0 ? "true" : "false");
	res = PQexec(c->pg, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = kifu_pg_result_fail_(c, res);
	PQclear(res);
	return ret;
}

/* The transaction ended: committed (what it took is stored) or not (forgotten). */
void kifu_pg_ids_end_(struct pg_conn *c, int committed)
{
	struct kifu_pg_ids_ *t = c->ids;

	if (!t)
		return;
	t->on = 0;
	t->nundo = 0;
	if (!committed && (t->set_game || t->set_player))
		forget(t);
	t->set_game = t->set_player = 0;
}
