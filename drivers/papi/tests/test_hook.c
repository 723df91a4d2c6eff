/*
 * test_hook.c - papi_sde_hook_list_events() of the PAPI test library: lists
 * the test monitor and the Y9 monitor, so that `papi_native_avail -sde
 * test_papi` shows both (make papi-test checks every name).
 */
#include "jointer_papi.h"
#include "papi_mon.h"
#include "selective_accumulations.h"

JOINTER_PAPI_LISTABLE(&papi_mon_cfg, &selective_accumulations_cfg)
