// SPDX-License-Identifier: MIT
/*
 * test_hook.c - papi_sde_hook_list_events() of the PAPI test library: lists
 * the test monitor, the Y9 monitor and relay_mon (a relay trace: a LOST
 * event), so that `papi_native_avail -sde test_papi` shows them all (make
 * papi-test checks every name).
 */
#include "jointer_papi.h"
#include "papi_mon.h"
#include "relay_mon.h"
#include "selective_accumulations.h"

JOINTER_PAPI_LISTABLE(&papi_mon_cfg, &selective_accumulations_cfg, &relay_mon_cfg)
