/* core/evq_pairing.h — private to core/evq.c: the pairing-heap
 * implementation of struct evq (EVQ_PAIRING). Callers use evq.h. */
#ifndef DFSIM_EVQ_PAIRING_H
#define DFSIM_EVQ_PAIRING_H

#include "core/evq.h"

/* Same contracts as evq_init, evq_free, evq_push, evq_pop, evq_peek. */
int evq_pairing_init(struct evq *q, size_t capacity);
void evq_pairing_free(struct evq *q);
int evq_pairing_push(struct evq *q, const struct event *e);
bool evq_pairing_pop(struct evq *q, struct event *out);
const struct event *evq_pairing_peek(const struct evq *q);

#endif
