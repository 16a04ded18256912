/*
 * test_rand_sobol_hd_gold.h — golden Sobol points of high dimensions (up to
 * 21200, the last of Joe & Kuo's new-joe-kuo-6.21201) for test_rand_ext.c,
 * computed outside this code base with Debian scipy 1.10.1 (/usr/bin/python3):
 *     e32 = scipy.stats.qmc.Sobol(d=21201, scramble=False, bits=32)
 *     e32.fast_forward(SOBOL_HD_K0); x = e32.random(16) * 2**32
 *         -> SOBOL_HD_GOLD32[r][k] = x[k, SOBOL_HD_DIMS[r]], points K0 .. K0 + 15
 *     point(v, j, k) = XOR of int(v[j][b]) over the set bits b of k ^ (k >> 1)
 *         -> SOBOL_HD_FAR32[r] = point(e32._sv, j, k) for k = 2^31 + 5, 2^32 - 1,
 *            2^32 - 2 (checked against random() for the K0 points first)
 *         -> SOBOL_HD_GOLD64[r][i] = point(Sobol(d=21201, scramble=False,
 *            bits=64)._sv, j, SOBOL_HD_FAR[i])
 * scipy computes its direction numbers from the same Joe-Kuo data with its
 * own code (scipy/stats/_sobol.pyx), independently of sobol_tables.c.
 */
#define SOBOL_HD_K0 1000
static const unsigned SOBOL_HD_DIMS[7] = {1000, 1023, 1024, 10000, 19999, 20000, 21200};
static const uint32_t SOBOL_HD_GOLD32[7][16] = {
    {0x90c00000u, 0x10c00000u, 0xd0c00000u, 0x50c00000u, 0x70c00000u, 0xf0c00000u, 0x30c00000u,
     0xb0c00000u, 0xd8c00000u, 0x58c00000u, 0x98c00000u, 0x18c00000u, 0x38c00000u, 0xb8c00000u,
     0x78c00000u, 0xf8c00000u},
    {0xb6c00000u, 0x36c00000u, 0x76c00000u, 0xf6c00000u, 0x56c00000u, 0xd6c00000u, 0x96c00000u,
     0x16c00000u, 0x4ec00000u, 0xcec00000u, 0x8ec00000u, 0x0ec00000u, 0xaec00000u, 0x2ec00000u,
     0x6ec00000u, 0xeec00000u},
    {0xdfc00000u, 0x5fc00000u, 0x9fc00000u, 0x1fc00000u, 0x7fc00000u, 0xffc00000u, 0x3fc00000u,
     0xbfc00000u, 0x47c00000u, 0xc7c00000u, 0x07c00000u, 0x87c00000u, 0xe7c00000u, 0x67c00000u,
     0xa7c00000u, 0x27c00000u},
    {0x75c00000u, 0xf5c00000u, 0x35c00000u, 0xb5c00000u, 0xd5c00000u, 0x55c00000u, 0x95c00000u,
     0x15c00000u, 0xddc00000u, 0x5dc00000u, 0x9dc00000u, 0x1dc00000u, 0x7dc00000u, 0xfdc00000u,
     0x3dc00000u, 0xbdc00000u},
    {0xddc00000u, 0x5dc00000u, 0x9dc00000u, 0x1dc00000u, 0x3dc00000u, 0xbdc00000u, 0x7dc00000u,
     0xfdc00000u, 0x25c00000u, 0xa5c00000u, 0x65c00000u, 0xe5c00000u, 0xc5c00000u, 0x45c00000u,
     0x85c00000u, 0x05c00000u},
    {0x7dc00000u, 0xfdc00000u, 0x3dc00000u, 0xbdc00000u, 0x9dc00000u, 0x1dc00000u, 0xddc00000u,
     0x5dc00000u, 0xe5c00000u, 0x65c00000u, 0xa5c00000u, 0x25c00000u, 0x05c00000u, 0x85c00000u,
     0x45c00000u, 0xc5c00000u},
    {0x15400000u, 0x95400000u, 0xd5400000u, 0x55400000u, 0xb5400000u, 0x35400000u, 0x75400000u,
     0xf5400000u, 0x8d400000u, 0x0d400000u, 0x4d400000u, 0xcd400000u, 0x2d400000u, 0xad400000u,
     0xed400000u, 0x6d400000u},
};
static const uint64_t SOBOL_HD_FAR[4] = {UINT64_C(0x0000000080000005), UINT64_C(0x00000000ffffffff),
                                         UINT64_C(0x0000010000000003),
                                         UINT64_C(0xfffffffffffffffe)};
static const uint32_t SOBOL_HD_FAR32[7][3] = {
    {0x0096e245u, 0x3ef3e5d7u, 0xbef3e5d7u}, {0xb10239f3u, 0x651de84du, 0xe51de84du},
    {0xe1c1864bu, 0x976feaedu, 0x176feaedu}, {0x4feb79b9u, 0x61756133u, 0xe1756133u},
    {0xb50f2d35u, 0x704675d3u, 0xf04675d3u}, {0x6c85a503u, 0x66745779u, 0xe6745779u},
    {0x155ddc23u, 0xd9565cddu, 0x59565cddu},
};
static const uint64_t SOBOL_HD_GOLD64[7][4] = {
    {UINT64_C(0x0096e24500000000), UINT64_C(0x3ef3e5d700000000), UINT64_C(0xc7396f7b8d800000),
     UINT64_C(0x91bd932d5cb57bc1)},
    {UINT64_C(0xb10239f300000000), UINT64_C(0x651de84d00000000), UINT64_C(0xbd636a964c800000),
     UINT64_C(0xf474636b82ff147d)},
    {UINT64_C(0xe1c1864b00000000), UINT64_C(0x976feaed00000000), UINT64_C(0x2628398d25800000),
     UINT64_C(0xdaeda7dad699b8db)},
    {UINT64_C(0x4feb79b900000000), UINT64_C(0x6175613300000000), UINT64_C(0x7cbcadb3f8800000),
     UINT64_C(0x6583f12727c210f9)},
    {UINT64_C(0xb50f2d3500000000), UINT64_C(0x704675d300000000), UINT64_C(0xa854991c6c800000),
     UINT64_C(0xf6bdb0bef0de7261)},
    {UINT64_C(0x6c85a50300000000), UINT64_C(0x6674577900000000), UINT64_C(0xd0a03862ee800000),
     UINT64_C(0xa392e31dd62f0131)},
    {UINT64_C(0x155ddc2300000000), UINT64_C(0xd9565cdd00000000), UINT64_C(0xa478000006800000),
     UINT64_C(0x28d3f37ab495c0c3)},
};
