// phr_rank: FTS5's BM25 for the best K rows of a match, without looking up the length of rows
// that cannot be among them.
//
// FTS5's bm25() needs each matching row's length in tokens, which it reads with one statement on
// the %_docsize table per row: about 1 us a row, 32 ms for a word on 33,789 pages, where counting
// the same matches takes 1.5 ms. A query only keeps the best K rows (ORDER BY score LIMIT K), so
// phr_rank first bounds each row's score from its term frequencies and the positions of its
// matches (the shortest the row can be is where its last matches end) and reads the length only
// when that bound could still enter the K best found so far. Rows it skips get +inf, which sorts after every real
// score, so `ORDER BY phr_rank(...) LIMIT K` returns the same rows, with the same scores, in the
// same order as `ORDER BY bm25(...) LIMIT K`. The score is computed with the same expressions in
// the same order as FTS5's fts5Bm25Function (ext/fts5/fts5_aux.c), so it is the same double.
//
//   phr_rank(fts_table, K, weight_0, weight_1, ...)      K >= 1; weights as for bm25()
//
// Above PHR_RANK_MAX_K kept rows it computes every row's score, as bm25() does.
//
// FTS5 API reference: https://www.sqlite.org/fts5.html#custom_auxiliary_functions

#include "CPHRVFS.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define PHR_RANK_MAX_K 1000000

// Per query: BM25's constants, the weights, the K best scores so far as a max-heap (the worst
// of them on top; scores are negative, smaller is better), and a scratch array of frequencies.
typedef struct {
    int phraseCount;
    double averageLength;
    double *idf;
    double *frequency;
    int *phraseSize;
    int columnCount;
    int *columnEnd;
    int weightCount;
    double *weights;
    int capacity;
    int count;
    double *heap;
} RankState;

static void rank_state_free(void *pointer) {
    RankState *state = pointer;
    if (state == NULL) return;
    sqlite3_free(state->idf);
    sqlite3_free(state->frequency);
    sqlite3_free(state->phraseSize);
    sqlite3_free(state->columnEnd);
    sqlite3_free(state->weights);
    sqlite3_free(state->heap);
    sqlite3_free(state);
}

static int count_rows(const Fts5ExtensionApi *api, Fts5Context *fts, void *context) {
    (void)api;
    (void)fts;
    (*(sqlite3_int64 *)context)++;
    return SQLITE_OK;
}

// The same statistics as fts5Bm25GetData: average row length and each phrase's IDF.
static int rank_state_make(const Fts5ExtensionApi *api, Fts5Context *fts, int capacity, int weightCount,
                           sqlite3_value **weightValues, RankState **out) {
    RankState *state = sqlite3_malloc(sizeof(RankState));
    if (state == NULL) return SQLITE_NOMEM;
    memset(state, 0, sizeof(RankState));
    state->phraseCount = api->xPhraseCount(fts);
    state->capacity = capacity;
    state->weightCount = weightCount;
    int phrases = state->phraseCount > 0 ? state->phraseCount : 1;
    state->idf = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)phrases);
    state->frequency = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)phrases);
    state->phraseSize = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)phrases);
    state->columnCount = api->xColumnCount(fts);
    state->columnEnd = sqlite3_malloc64(sizeof(int) * (sqlite3_uint64)(state->columnCount > 0 ? state->columnCount : 1));
    state->weights = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)(weightCount > 0 ? weightCount : 1));
    state->heap = sqlite3_malloc64(sizeof(double) * (sqlite3_uint64)(capacity > 0 ? capacity : 1));
    if (!state->idf || !state->frequency || !state->phraseSize || !state->columnEnd || !state->weights || !state->heap) {
        rank_state_free(state);
        return SQLITE_NOMEM;
    }
    for (int i = 0; i < weightCount; i++) state->weights[i] = sqlite3_value_double(weightValues[i]);
    for (int i = 0; i < state->phraseCount; i++) state->phraseSize[i] = api->xPhraseSize(fts, i);

    sqlite3_int64 rows = 0;
    sqlite3_int64 tokens = 0;
    int rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
    if (rc == SQLITE_OK) state->averageLength = (double)tokens / (double)rows;
    for (int i = 0; rc == SQLITE_OK && i < state->phraseCount; i++) {
        sqlite3_int64 hits = 0;
        rc = api->xQueryPhrase(fts, i, &hits, count_rows);
        if (rc == SQLITE_OK) {
            double idf = log((rows - hits + 0.5) / (hits + 0.5));
            if (idf <= 0.0) idf = 1e-6;
            state->idf[i] = idf;
        }
    }
    if (rc != SQLITE_OK) {
        rank_state_free(state);
        return rc;
    }
    *out = state;
    return SQLITE_OK;
}

// BM25 of one row for a row length of `length` tokens (fts5Bm25Function's loop).
static double bm25(const RankState *state, double length) {
    const double k1 = 1.2;
    const double b = 0.75;
    double score = 0.0;
    for (int i = 0; i < state->phraseCount; i++) {
        score += state->idf[i] * ((state->frequency[i] * (k1 + 1.0)) /
                                  (state->frequency[i] + k1 * (1 - b + b * length / state->averageLength)));
    }
    return -1.0 * score;
}

static void heap_push(RankState *state, double score) {
    double *heap = state->heap;
    if (state->count < state->capacity) {
        int i = state->count++;
        heap[i] = score;
        while (i > 0 && heap[(i - 1) / 2] < heap[i]) {
            double parent = heap[(i - 1) / 2];
            heap[(i - 1) / 2] = heap[i];
            heap[i] = parent;
            i = (i - 1) / 2;
        }
        return;
    }
    if (score >= heap[0]) return;
    heap[0] = score;
    int i = 0;
    for (;;) {
        int largest = i;
        int left = 2 * i + 1;
        int right = left + 1;
        if (left < state->count && heap[left] > heap[largest]) largest = left;
        if (right < state->count && heap[right] > heap[largest]) largest = right;
        if (largest == i) break;
        double swap = heap[i];
        heap[i] = heap[largest];
        heap[largest] = swap;
        i = largest;
    }
}

static void phr_rank_function(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                              int argumentCount, sqlite3_value **arguments) {
    if (argumentCount < 1) {
        sqlite3_result_error(context, "phr_rank: K (the number of rows kept) is missing", -1);
        return;
    }
    RankState *state = api->xGetAuxdata(fts, 0);
    if (state == NULL) {
        sqlite3_int64 capacity = sqlite3_value_int64(arguments[0]);
        if (capacity < 1) {
            sqlite3_result_error(context, "phr_rank: K must be at least 1", -1);
            return;
        }
        // So many rows kept that skipping is not worth a heap of them: score every row.
        if (capacity > PHR_RANK_MAX_K) capacity = 0;
        int rc = rank_state_make(api, fts, (int)capacity, argumentCount - 1, arguments + 1, &state);
        if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, state, rank_state_free);
        if (rc != SQLITE_OK) {
            sqlite3_result_error_code(context, rc);
            return;
        }
    }

    // Term frequencies, weighted by column, as fts5Bm25Function sums them; and where the last
    // match in each column ends, since a column is at least that many tokens long.
    for (int i = 0; i < state->phraseCount; i++) state->frequency[i] = 0.0;
    for (int i = 0; i < state->columnCount; i++) state->columnEnd[i] = 0;
    int instances = 0;
    int rc = api->xInstCount(fts, &instances);
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase, column, offset;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK) {
            state->frequency[phrase] += column < state->weightCount ? state->weights[column] : 1.0;
            int end = offset + state->phraseSize[phrase];
            if (column >= 0 && column < state->columnCount && end > state->columnEnd[column]) state->columnEnd[column] = end;
        }
    }
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(context, rc);
        return;
    }

    // The best this row could score: BM25 falls as rows grow, so its best is at the shortest
    // length it can have, the sum of where each column's last match ends (at least one token).
    // If even that cannot beat the worst of K kept scores, the row is not among the best K and
    // its length is never read. Words spread through a page end near its end, so the bound is
    // close to the real score for the common words that make a long match list.
    int shortest = 0;
    for (int i = 0; i < state->columnCount; i++) shortest += state->columnEnd[i];
    if (state->capacity > 0 && state->count == state->capacity &&
        bm25(state, shortest > 0 ? (double)shortest : 1.0) > state->heap[0]) {
        sqlite3_result_double(context, INFINITY);
        return;
    }
    int length = 0;
    rc = api->xColumnSize(fts, -1, &length);
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(context, rc);
        return;
    }
    double score = bm25(state, (double)length);
    if (state->capacity > 0) heap_push(state, score);
    sqlite3_result_double(context, score);
}

int phr_rank_register(void *connection) {
    sqlite3 *db = connection;
    fts5_api *fts5 = NULL;
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&fts5, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (fts5 == NULL || fts5->iVersion < 2) return SQLITE_ERROR;
    return fts5->xCreateFunction(fts5, "phr_rank", NULL, phr_rank_function, NULL);
}
