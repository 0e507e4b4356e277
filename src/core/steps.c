/* core/steps.c — the counter of core/steps.h. */
#include "core/steps.h"

uint64_t steps_taken;
