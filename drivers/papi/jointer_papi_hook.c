// SPDX-License-Identifier: MIT
/*
 * jointer_papi_hook.c - papi_sde_hook_list_events() for one monitor, so that
 * `papi_native_avail -sde FILE` lists its events (jointer_papi.h). Build it
 * into the shared library that holds the descriptor:
 *
 *     gcc -shared -fPIC -DJOINTER_PAPI_CFG=<name>_cfg jointer_papi_hook.c \
 *         jointer_papi.c <name>.c <libjointer sources> -o libjointer_papi_<name>.so \
 *         -lpapi -lsde -pthread
 */
#include "jointer_papi.h"

#ifndef JOINTER_PAPI_CFG
#error "build with -DJOINTER_PAPI_CFG=<name>_cfg (the generated descriptor)"
#endif

extern const jointer_cfg JOINTER_PAPI_CFG;

JOINTER_PAPI_LISTABLE(&JOINTER_PAPI_CFG)
