/*
 * doca_version.h - the DOCA release whose device API these headers implement (Addendum A.9 of
 * the DOCA PCC fact sheet). 3.3 by default; `make -C firmware ... DOCA_VERSION=2.9` builds with
 * NICSIM_DOCA_VERSION_MAJOR=2, _MINOR=9 and selects the older surface where the releases differ
 * (docs/doca-pcc.md lists where). Plain integers, usable in #if. Written for nicsim.
 */
#ifndef DOCA_VERSION_H
#define DOCA_VERSION_H

#ifndef NICSIM_DOCA_VERSION_MAJOR
#define NICSIM_DOCA_VERSION_MAJOR 3
#endif
#ifndef NICSIM_DOCA_VERSION_MINOR
#define NICSIM_DOCA_VERSION_MINOR 3
#endif

#define DOCA_VERSION_MAJOR NICSIM_DOCA_VERSION_MAJOR
#define DOCA_VERSION_MINOR NICSIM_DOCA_VERSION_MINOR
#define DOCA_VERSION_PATCH 0

#define NICSIM_DOCA_STR_(x) #x
#define NICSIM_DOCA_STR(x) NICSIM_DOCA_STR_(x)
/** "M.m.0000": nicsim implements a release's API, not a build of it. */
#define DOCA_VERSION_STRING NICSIM_DOCA_STR(DOCA_VERSION_MAJOR) "." NICSIM_DOCA_STR(DOCA_VERSION_MINOR) ".0000"

#define DOCA_VERSION_CALC_EXACT(major, minor, patch) (((major) << 24) | ((minor) << 16) | (patch))
#define DOCA_VERSION_EXACT DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_CALC(major, minor, patch) (((major) << 24) | ((minor) << 16) | ((patch) * 1000))
#define DOCA_VERSION_OFFICIAL DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) == DOCA_VERSION_OFFICIAL)
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) (DOCA_VERSION_CALC(major, minor, patch) <= DOCA_VERSION_OFFICIAL)

/** nicsim's own test: the API surface is at least release major.minor. */
#define NICSIM_DOCA_AT_LEAST(major, minor) \
    (DOCA_VERSION_MAJOR > (major) || (DOCA_VERSION_MAJOR == (major) && DOCA_VERSION_MINOR >= (minor)))

/*
 * NICSIM_DOCA_REMOVED("why"): marks a name an older release had and this surface lacks. Using it is
 * a compile error that carries the text, e.g. "error: 'X' is unavailable: removed after DOCA 2.x;
 * build with DOCA_VERSION=2.9" (GCC 12 and clang: the unavailable attribute). Compilers without
 * that attribute get NICSIM_DOCA_REMOVED_NAMES 0, and the headers leave such names undeclared.
 */
#if defined(__has_attribute)
#if __has_attribute(unavailable)
#define NICSIM_DOCA_REMOVED(why) __attribute__((unavailable(why)))
#define NICSIM_DOCA_REMOVED_NAMES 1
#endif
#endif
#ifndef NICSIM_DOCA_REMOVED_NAMES
#define NICSIM_DOCA_REMOVED(why)
#define NICSIM_DOCA_REMOVED_NAMES 0
#endif

/** @return DOCA_VERSION_STRING */
static inline const char *doca_version(void)
{
    return DOCA_VERSION_STRING;
}

#endif
