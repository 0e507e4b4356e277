/* core/idlist.h — lists of ids written as ranges: "0-15,32,40-47".
 *
 * What experiment files use to name nodes (a job's node_list) and blades
 * (an Aries system's service_blades). Ids are decimal, below UINT32_MAX;
 * a range is "a-b" with a <= b; items are separated by commas; spaces
 * around an item are allowed. The parser is pure: it reads the text and
 * says what is wrong, and its caller words the error with its file, line
 * and key.
 */
#ifndef DFSIM_CORE_IDLIST_H
#define DFSIM_CORE_IDLIST_H

#include <stdint.h>

enum idlist_status {
    IDLIST_RANGE = 1,   /* *lo..*hi read, *p past it */
    IDLIST_END = 0,     /* no more items */
    IDLIST_NOT_ID = -1, /* *p is not at a digit where an id must start */
    IDLIST_NO_END = -2, /* "a-" without its last id */
    IDLIST_BAD_RANGE = -3, /* first > last, or an id >= UINT32_MAX
                              (*lo, *hi as read, saturated) */
    IDLIST_NO_COMMA = -4,  /* something other than ',' after an item (at
                              *p) */
};

/* The next range of the list at *p. On an error *p is where the text
 * stops making sense. */
enum idlist_status idlist_next(const char **p, uint64_t *lo, uint64_t *hi);

#endif
