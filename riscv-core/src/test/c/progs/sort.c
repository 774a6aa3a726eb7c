/*
 * Sorting: quicksort (recursive, median of three), merge sort (with a
 * scratch array) and insertion sort on xorshift32 data, signed 32-bit and
 * unsigned 64-bit keys. Exercises loads/stores, compare-and-branch in both
 * signednesses, recursion (stack in .bss) and calls. Prints checksums and a
 * few elements of each result; exit status = number of out-of-order pairs
 * found (0 when the core is right).
 */
#include "rt.h"

#define N 3000

static int32_t a[N], b[N], tmp[N];
static uint64_t u[N], utmp[N];

static uint32_t xs = 2463534242u;

static uint32_t next(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 17;
    xs ^= xs << 5;
    return xs;
}

static void swap(int32_t *x, int32_t *y)
{
    int32_t t = *x;
    *x = *y;
    *y = t;
}

static void quicksort(int32_t *v, int lo, int hi)
{
    while (hi - lo > 12) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) swap(&v[mid], &v[lo]);
        if (v[hi] < v[lo]) swap(&v[hi], &v[lo]);
        if (v[hi] < v[mid]) swap(&v[hi], &v[mid]);
        int32_t pivot = v[mid];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                swap(&v[i], &v[j]);
                i++;
                j--;
            }
        }
        /* recurse into the smaller half, loop on the larger */
        if (j - lo < hi - i) {
            quicksort(v, lo, j);
            lo = i;
        } else {
            quicksort(v, i, hi);
            hi = j;
        }
    }
    for (int i = lo + 1; i <= hi; i++) {
        int32_t key = v[i];
        int j = i - 1;
        while (j >= lo && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
    }
}

/* bottom-up merge sort of n keys through the scratch array t, one definition per key type */
#define DEFINE_MERGE_SORT(name, type)                                               \
    static void name(type *v, type *t, int n)                                       \
    {                                                                               \
        for (int width = 1; width < n; width *= 2) {                                \
            for (int lo = 0; lo < n; lo += 2 * width) {                             \
                int mid = lo + width < n ? lo + width : n;                          \
                int hi = lo + 2 * width < n ? lo + 2 * width : n;                   \
                int i = lo, j = mid, k = lo;                                        \
                while (i < mid && j < hi) t[k++] = v[i] <= v[j] ? v[i++] : v[j++];  \
                while (i < mid) t[k++] = v[i++];                                    \
                while (j < hi) t[k++] = v[j++];                                     \
            }                                                                       \
            memcpy(v, t, (size_t)n * sizeof v[0]);                                  \
        }                                                                           \
    }

DEFINE_MERGE_SORT(merge_sort, int32_t)
DEFINE_MERGE_SORT(merge_sort_u64, uint64_t)

static uint32_t checksum(const int32_t *v, int n)
{
    uint32_t h = 0;
    for (int i = 0; i < n; i++) {
        h = h * 31u + (uint32_t)v[i];
    }
    return h;
}

static void show(const char *name, const int32_t *v, int n)
{
    rt_puts(name);
    rt_puts(" sum=0x");
    rt_put_hex(checksum(v, n), 8);
    rt_puts(" first=");
    rt_put_dec(v[0]);
    rt_puts(" median=");
    rt_put_dec(v[n / 2]);
    rt_puts(" last=");
    rt_put_dec(v[n - 1]);
    rt_putc('\n');
}

int main(void)
{
    int disorder = 0;
    for (int i = 0; i < N; i++) {
        /* many duplicates in the low range, full range for the rest */
        a[i] = (i % 3 == 0) ? (int32_t)(next() % 50) - 25 : (int32_t)next();
        b[i] = a[i];
        u[i] = ((uint64_t)next() << 32) | next();
    }
    show("input", a, N);
    quicksort(a, 0, N - 1);
    merge_sort(b, tmp, N);
    merge_sort_u64(u, utmp, N);
    for (int i = 1; i < N; i++) {
        if (a[i - 1] > a[i]) disorder++;
        if (u[i - 1] > u[i]) disorder++;
    }
    if (memcmp(a, b, sizeof a) != 0) disorder += 1000;
    show("quicksort", a, N);
    show("mergesort", b, N);
    rt_kv_hex("u64.min", u[0], 16);
    rt_kv_hex("u64.max", u[N - 1], 16);
    rt_kv_hex("u64.mid", u[N / 2], 16);
    /* insertion sort of a reversed small array: worst case */
    int32_t small[64];
    for (int i = 0; i < 64; i++) small[i] = 64 - i;
    quicksort(small, 0, 63);
    show("reversed", small, 64);
    rt_kv_dec("disorder", disorder);
    return disorder;
}
