/*
 * solver_tile_layout.c — tile counts, group shapes and the task layout of
 * a step's block of tile updates (ops/solver_tile_layout.h). Pure
 * functions.
 */
#include "ops/solver_tile_layout.h"

static int min_int(int a, int b) {
    return a < b ? a : b;
}

int trn_tile_count(int len, int nb) {
    return nb > 0 && len > 0 ? (int)(((long long)len + nb - 1) / nb) : 0;
}

size_t trn_tile_groups(int tiles, int g) {
    return tiles > 0 ? (size_t)(tiles + g - 1) / (size_t)g : 0;
}

void trn_tile_group_shape(long long tiles, int wide, int *gr, int *gc) {
    const long long a = tiles / TRN_TILE_MIN_TASKS;
    const int area = a < 1 ? 1 : a > TRN_TILE_GROUP_AREA ? TRN_TILE_GROUP_AREA : (int)a;
    /* About twice as tall as wide: the largest c with 2 c^2 <= area. */
    int c = 1;
    while (wide && c < TRN_TILE_GROUP_COLS && 2 * (c + 1) * (c + 1) <= area)
        c++;
    const int r = area / c;
    *gc = c;
    *gr = tiles == 0 || r < 1 ? 1 : r > TRN_TILE_GROUP ? TRN_TILE_GROUP : r;
}

int trn_tile_layout_first_row(const trn_tile_layout *L, int j) {
    return L->chol ? j : L->k + 1;
}

void trn_tile_layout_set_tail(trn_tile_layout *L) {
    L->ctail = L->T;
    if (L->gr * L->gc > 1) {
        long long tail = 0;
        while (L->ctail > L->cstart && tail < (long long)L->gr * L->gc) {
            L->ctail--;
            tail += L->row_end - trn_tile_layout_first_row(L, L->ctail);
        }
    }
}

size_t trn_tile_layout_tasks(const trn_tile_layout *L) {
    size_t n = (size_t)L->lead;
    for (int j0 = L->cstart; j0 < L->ctail; j0 += L->gc)
        n += trn_tile_groups(L->row_end - trn_tile_layout_first_row(L, j0), L->gr);
    for (int j = L->ctail; j < L->T; j++)
        n += (size_t)(L->row_end - trn_tile_layout_first_row(L, j));
    return n;
}

trn_tile_span trn_tile_layout_span(const trn_tile_layout *L, size_t t) {
    trn_tile_span s = {.i = L->k + 1, .j = L->k + 1, .ni = L->row_end - L->k - 1, .nj = 1};
    if (L->lead) {
        if (t == 0)
            return s;
        t--;
    }
    for (int j0 = L->cstart; j0 < L->ctail; j0 += L->gc) {
        const int r0 = trn_tile_layout_first_row(L, j0);
        const size_t n = trn_tile_groups(L->row_end - r0, L->gr);
        if (t < n) {
            s.i = r0 + (int)t * L->gr;
            s.ni = min_int(L->gr, L->row_end - s.i);
            s.j = j0;
            s.nj = min_int(L->gc, L->ctail - j0);
            return s;
        }
        t -= n;
    }
    for (int j = L->ctail; j < L->T; j++) {
        const size_t n = (size_t)(L->row_end - trn_tile_layout_first_row(L, j));
        if (t < n) {
            s.i = trn_tile_layout_first_row(L, j) + (int)t;
            s.ni = s.nj = 1;
            s.j = j;
            return s;
        }
        t -= n;
    }
    return s; /* t out of range: not reached by callers */
}
