/*
 * Private to libkifu (lib/store/store_check.c, used by lib/stats/check.c
 * for kifu_stats_check): the store's half of the integrity check, which
 * checks one stored game at a time against a replay of its record and
 * asks only what the store answers through its backend interface (the
 * game's row, its record loaded back with its lines, its stored hashes,
 * the position indexes), never how a backend lays out its bytes.
 */
#ifndef KIFU_STORE_CHECK_H
#define KIFU_STORE_CHECK_H

#include <stdint.h>

#include "kifu/error.h"
#include "kifu/replay.h"
#include "kifu/store.h"

/*
 * What is wrong, as the check finds it: fn(ctx, check, id, message) with
 * check the kind ("game": the game does not load or replay as stored, its
 * lines included; "hashes": its stored hashes are not its replay's;
 * "position index", "canonical index": a position of it is missing from an index,
 * or the index holds what no game reaches; "pattern summary": its row of
 * game_cells, which kifu-search --pattern reads, is missing or not its
 * replay's), id the game (-1: none in
 * particular) and a message without the "database ... is damaged" prefix.
 * A non-zero return stops the check and is returned.
 */
typedef int (*kifu_store_check_fn_)(void *ctx, const char *check, int64_t id,
				    const char *message);

struct kifu_store_check_;

/* *out belongs to the caller (kifu_store_check_free_, which takes NULL). */
int kifu_store_check_open_(struct kifu_store_check_ **out, struct kifu_store *st,
			   kifu_store_check_fn_ fn, void *ctx, struct kifu_error *err);
void kifu_store_check_free_(struct kifu_store_check_ *ck);

/*
 * Checks stored game id: its record loads (with format 2's lines) and
 * replays, in as many plies as games.plies says, to the duplicate key
 * games.content_hash holds; its stored hashes are the replay's, ply for
 * ply; its pattern summary is its replay's; every position it reaches is
 * in the position index with the first
 * ply it reached it at (and, where the backend keeps one, in the
 * canonical index by its canonical hash). What is wrong goes to fn; the
 * return is 0, fn's non-zero return, or a negative KIFU_E* code when the
 * database or memory failed (err filled).
 */
int kifu_store_check_game_(struct kifu_store_check_ *ck, int64_t id, struct kifu_error *err);

/*
 * The backend's own check of its storage where it has one (SQLite's PRAGMA
 * integrity_check: a problem "file" per row it gives that is not "ok").
 */
int kifu_store_check_file_(struct kifu_store_check_ *ck, struct kifu_error *err);

/*
 * The replay of the game checked last when it replayed as stored (moves,
 * texts and hashes: the tree's positions to check), else NULL.
 */
const struct kifu_replay *kifu_store_check_replay_(const struct kifu_store_check_ *ck);

/*
 * After every stored game was checked and replayed: the position indexes
 * hold no entry besides those of the games (each game once per position
 * it reaches), told by their counts; else to fn. Positions checked so far
 * in *positions (index entries the games make).
 */
int kifu_store_check_totals_(struct kifu_store_check_ *ck, struct kifu_error *err);
long long kifu_store_check_positions_(const struct kifu_store_check_ *ck);

#endif
