# SPDX-License-Identifier: MIT
"""Bad inputs for test_gen_bad_input.py: (id, YAML text, expected stderr lines).

Each YAML is written to bad.yaml in an empty folder and given to jointer-gen
with -o out; the expected lines are the exact diagnostics (file:line:col),
followed by the summary line, and nothing may be written.
"""

# a valid monitor the cases below start from (each case is complete on its own)
GOOD = """
jointer: 1
monitor:
  name: mon
  clocks: [axi, fast]
lmics:
  - name: lm
    clock: fast
    sniffers:
      - name: task
        interfacer: {type: start_done}
        dcapfs:
          - {name: busy, extractor: time, width: 40}
"""

SINK_BASE = """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: t, extractor: trace, SINK}]
"""

CASES = [
    # ---- YAML level -------------------------------------------------------
    ("yaml_syntax", """
jointer: 1
monitor: {name: mon, clocks: [axi]
lmics: []
""", ["bad.yaml:3:1: error: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping (expected valid YAML 1.1)"]),
    ("yaml_tab_indent", "jointer: 1\nmonitor:\n\tname: mon\n",
     ['bad.yaml:3:1: error: invalid YAML: found character that cannot start any token while scanning for the next token (expected valid YAML 1.1)']),
    ("empty_file", "", ["bad.yaml:1:1: error: empty file (expected a monitor description starting with 'jointer: 1')"]),
    ("only_comments", "# nothing here\n\n", ["bad.yaml:1:1: error: empty file (expected a monitor description starting with 'jointer: 1')"]),
    ("two_documents", "jointer: 1\n---\njointer: 1\n",
     ['bad.yaml:2:1: error: several YAML documents in one file (expected exactly one)']),
    ("duplicate_key", """
jointer: 1
monitor:
  name: mon
  name: other
  clocks: [axi]
lmics: []
""", ["bad.yaml:4:3: error: duplicate key 'name' (first defined at line 3, column 3)"]),
    ("non_string_key", "jointer: 1\n3: x\n",
     ['bad.yaml:2:1: error: key 3 is a integer (expected a string key)']),
    ("unknown_tag", "jointer: !!python/object:os.system 1\n",
     ["bad.yaml:1:10: error: cannot read value: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system' (expected a plain YAML scalar without tags)"]),
    ("top_not_mapping", "- jointer: 1\n",
     ['bad.yaml:1:1: error: wrong type for the document: a list (expected a mapping with the keys jointer, monitor, lmics)']),
    ("monitor_not_mapping", "jointer: 1\nmonitor: [a]\nlmics: [[1]]\n",
     ['bad.yaml:2:10: error: wrong type for monitor: a list (expected a mapping with the keys name, clocks (and optionally description, bus, platform, timing, global))',
      'bad.yaml:3:9: error: wrong type for lmics[0]: a list (expected a mapping with the keys name, sniffers (and optionally description, clock))']),
    # a tag on a list or a mapping is refused as on a scalar
    ("tag_on_list", GOOD.replace("clocks: [axi, fast]", "clocks: !mytag [axi, fast]"),
     ["bad.yaml:4:11: error: unsupported tag '!mytag' on a list (expected a plain YAML list without tags)"]),
    ("python_tuple_tag", GOOD.replace("clocks: [axi, fast]", "clocks: !!python/tuple [axi, fast]"),
     ["bad.yaml:4:11: error: unsupported tag '!!python/tuple' on a list (expected a plain YAML list without tags)"]),
    ("python_object_tag_on_mapping", GOOD.replace("interfacer: {type: start_done}",
                                                  "interfacer: !!python/object:os.system {type: start_done}"),
     ["bad.yaml:10:21: error: unsupported tag '!!python/object:os.system' on a mapping (expected a plain YAML mapping without tags)"]),
    ("tag_on_top_mapping", "!mon\n" + GOOD.lstrip("\n"),
     ["bad.yaml:1:1: error: unsupported tag '!mon' on a mapping (expected a plain YAML mapping without tags)"]),
    ("invalid_utf8", b"jointer: 1\nmonitor: {name: \xff}\n",
     ['bad.yaml:2:17: error: invalid UTF-8 byte 0xFF (expected a UTF-8 text file)']),
    ("merge_key", """
jointer: 1
base: &b {name: mon}
monitor:
  <<: *b
  clocks: [axi]
""", ["bad.yaml:4:3: error: YAML merge keys ('<<') are not supported (expected the keys written out)"]),

    # ---- schema: keys, types, ranges ---------------------------------------
    ("missing_top_keys", "jointer: 1\n",
     ["bad.yaml:1:1: error: missing key 'lmics' in the document (expected 'lmics'; keys: jointer, monitor, lmics)",
      "bad.yaml:1:1: error: missing key 'monitor' in the document (expected 'monitor'; keys: jointer, monitor, lmics)"]),
    ("schema_version", GOOD.replace("jointer: 1", "jointer: 2"),
     ["bad.yaml:1:10: error: unsupported schema version 2 for 'jointer' (expected 1)"]),
    ("unknown_top_key", GOOD + "lmic: []\n",
     ["bad.yaml:13:1: error: unknown key 'lmic' in the document (did you mean 'lmics'? expected one of: jointer, monitor, lmics)"]),
    ("unknown_key_typo", GOOD.replace("{name: busy, extractor: time, width: 40}",
                                      "{name: busy, extractor: time, widht: 40}"),
     ["bad.yaml:12:43: error: unknown key 'widht' in lmics[lm].sniffers[task].dcapfs[busy] (did you mean 'width'? expected one of: name, description, extractor, width, aggregator, event, filter, on_overflow, threshold_irq, buckets, boundaries)"]),
    ("key_of_other_extractor", GOOD.replace("width: 40}", "width: 40, sample: data}"),
     ["bad.yaml:12:54: error: unknown key 'sample' in lmics[lm].sniffers[task].dcapfs[busy] ('sample' is for extractor event; expected one of: name, description, extractor, width, aggregator, event, filter, on_overflow, threshold_irq, buckets, boundaries)"]),
    ("key_of_other_interfacer", GOOD.replace("{type: start_done}", "{type: start_done, width: 2}"),
     ["bad.yaml:10:40: error: unknown key 'width' in lmics[lm].sniffers[task].interfacer ('width' is for type events; expected one of: type, mode)"]),
    ("missing_name", GOOD.replace("{name: busy, extractor: time, width: 40}",
                                  "{extractor: time, width: 40}"),
     ["bad.yaml:12:13: error: missing key 'name' in lmics[lm].sniffers[task].dcapfs[0] (expected 'name'; keys: extractor)"]),
    ("missing_extractor", GOOD.replace("extractor: time, ", ""),
     ["bad.yaml:12:13: error: missing key 'extractor' in lmics[lm].sniffers[task].dcapfs[busy] (expected 'extractor': event, time, trace)"]),
    ("missing_interfacer_type", GOOD.replace("{type: start_done}", "{mode: busy}"),
     ["bad.yaml:10:21: error: missing key 'type' in lmics[lm].sniffers[task].interfacer (expected 'type': axi4, axi4lite, axis, start_done, events, mark, axi_util, contention, pc, axi4_latency, axis_util)"]),
    ("bad_enum", GOOD.replace("type: start_done", "type: start_dne"),
     ["bad.yaml:10:28: error: invalid value 'start_dne' for lmics[lm].sniffers[task].interfacer.type (did you mean 'start_done'? expected one of: axi4, axi4lite, axis, start_done, events, mark, axi_util, contention, pc, axi4_latency, axis_util)"]),
    ("trace_mode_typo", GOOD.replace("{name: busy, extractor: time, width: 40}",
                                     "{name: busy, extractor: trace, mode: realy}"),
     ["bad.yaml:12:50: error: invalid value 'realy' for lmics[lm].sniffers[task].dcapfs[busy].mode (did you mean 'relay'? expected one of: stop, ring, relay, sink)"]),
    ("relay_mode_on_a_time_extractor", GOOD.replace("width: 40}", "width: 40, mode: relay}"),
     ["bad.yaml:12:54: error: unknown key 'mode' in lmics[lm].sniffers[task].dcapfs[busy] ('mode' is for extractor trace; expected one of: name, description, extractor, width, aggregator, event, filter, on_overflow, threshold_irq, buckets, boundaries)"]),
    ("wrong_type_width", GOOD.replace("width: 40", "width: forty"),
     ["bad.yaml:12:50: error: wrong type for lmics[lm].sniffers[task].dcapfs[busy].width: 'forty' is a string (expected an integer)"]),
    ("float_is_not_integer", GOOD.replace("width: 40", "width: 40.0"),
     ['bad.yaml:12:50: error: wrong type for lmics[lm].sniffers[task].dcapfs[busy].width: 40.0 is a number (expected an integer)']),
    ("width_too_large", GOOD.replace("width: 40", "width: 65"),
     ['bad.yaml:12:50: error: width 65 out of range in lmics[lm].sniffers[task].dcapfs[busy].width (expected 1..64)']),
    ("width_zero", GOOD.replace("width: 40", "width: 0"),
     ['bad.yaml:12:50: error: width 0 out of range in lmics[lm].sniffers[task].dcapfs[busy].width (expected 1..64)']),
    ("bool_is_not_integer", GOOD.replace("width: 40", "width: true"),
     ['bad.yaml:12:50: error: wrong type for lmics[lm].sniffers[task].dcapfs[busy].width: true is a boolean (expected an integer)']),
    ("bad_identifier", GOOD.replace("name: task", "name: Task-1"),
     ["bad.yaml:9:15: error: invalid name 'Task-1' for lmics[lm].sniffers[0].name (expected lower-case letters, digits and single '_', starting with a letter, not ending with '_')"]),
    ("double_underscore", GOOD.replace("name: task", "name: my__task"),
     ["bad.yaml:9:15: error: invalid name 'my__task' for lmics[lm].sniffers[0].name (expected lower-case letters, digits and single '_', starting with a letter, not ending with '_')"]),
    ("name_too_long", GOOD.replace("name: task", "name: " + "t" * 33),
     ['bad.yaml:9:15: error: lmics[lm].sniffers[0].name is too long: 33 characters (expected at most 32)']),
    ("description_newline", GOOD.replace("  name: mon\n", "  name: mon\n  description: \"two\\nlines\"\n"),
     ["bad.yaml:4:16: error: invalid text 'two\\nlines' for monitor.description (expected one line of text)"]),
    ("too_many_sniffers", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
""" + "".join(f"      - {{name: s{i}, interfacer: {{type: events}}, dcapfs: [{{name: c{i}, extractor: event}}]}}\n"
              for i in range(16)),
     ['bad.yaml:6:7: error: lmics[lm].sniffers has 16 items (expected at most 15: the 32-bit CONTROL register holds RUN, SOFT_RESET and 2 PROG bits per sniffer)']),
    ("no_dcapfs", GOOD.replace("""        dcapfs:
          - {name: busy, extractor: time, width: 40}
""", "        dcapfs: []\n"),
     ['bad.yaml:11:17: error: lmics[lm].sniffers[task].dcapfs has 0 items (expected at least 1: the dispenser addresses up to 128 DCAPFs)']),
    ("filter_bound_33_bits", GOOD.replace("width: 40}", "width: 40, filter: {high: 0x100000000}}"),
     ["bad.yaml:12:69: error: filter high 0x1_0000_0000 of lmics[lm].sniffers[task].dcapfs[busy] does not fit the 32-bit event data of sniffer 'task' (expected at most 0xFFFF_FFFF)"]),
    # constant bounds, optional global registers
    ("filter_runtime_on_trace", GOOD.replace(
        "          - {name: busy, extractor: time, width: 40}",
        "          - {name: busy, extractor: time, width: 40}\n"
        "          - {name: tr, extractor: trace, depth: 16, filter: {low: 0, high: 5, runtime: false}}"),
     ["bad.yaml:13:88: error: runtime: false in lmics[lm].sniffers[task].dcapfs[tr]: a trace DCAPF's bounds "
      "are always loaded at run time (expected runtime: true, or filter: none)"]),
    ("filter_runtime_not_bool", GOOD.replace("width: 40}", "width: 40, filter: {low: 1, high: 1, runtime: maybe}}"),
     ["bad.yaml:12:89: error: wrong type for lmics[lm].sniffers[task].dcapfs[busy].filter.runtime: 'maybe' is "
      "a string (expected true or false)"]),
    ("global_unknown_key", GOOD.replace("  clocks: [axi, fast]", "  clocks: [axi, fast]\n  global: {timestamps: true}"),
     ["bad.yaml:5:12: error: unknown key 'timestamps' in monitor.global (did you mean 'timestamp'? expected one "
      "of: timestamp, scratch, descriptor)"]),
    ("global_not_bool", GOOD.replace("  clocks: [axi, fast]", "  clocks: [axi, fast]\n  global: {scratch: 1}"),
     ["bad.yaml:5:21: error: wrong type for monitor.global.scratch: 1 is an integer (expected true or false)"]),
    ("global_descriptor_unknown", GOOD.replace("  clocks: [axi, fast]",
                                               "  clocks: [axi, fast]\n  global: {descriptor: flash}"),
     ["bad.yaml:5:24: error: invalid value 'flash' for monitor.global.descriptor (expected one of: none, rom)"]),
    ("global_descriptor_bool", GOOD.replace("  clocks: [axi, fast]", "  clocks: [axi, fast]\n  global: {descriptor: true}"),
     ["bad.yaml:5:24: error: invalid value true for monitor.global.descriptor (expected one of: none, rom)"]),
    ("filter_not_none", GOOD.replace("width: 40}", "width: 40, filter: nothing}"),
     ["bad.yaml:12:62: error: invalid value 'nothing' for lmics[lm].sniffers[task].dcapfs[busy].filter (expected 'none' or a mapping {low, high})"]),
    ("filter_none_typo", GOOD.replace("width: 40}", "width: 40, filter: nnoe}"),
     ["bad.yaml:12:62: error: invalid value 'nnoe' for lmics[lm].sniffers[task].dcapfs[busy].filter (did you mean 'none'? expected 'none' or a mapping {low, high})"]),
    ("filter_false", GOOD.replace("width: 40}", "width: 40, filter: false}"),
     ["bad.yaml:12:62: error: invalid value false for lmics[lm].sniffers[task].dcapfs[busy].filter (expected 'none' or a mapping {low, high})"]),
    ("filter_bounds_list", GOOD.replace("width: 40}", "width: 40, filter: [0, 9]}"),
     ["bad.yaml:12:62: error: invalid value a list for lmics[lm].sniffers[task].dcapfs[busy].filter (expected 'none' or a mapping {low, high})"]),
    ("trace_depth_not_pow2", GOOD.replace("{name: busy, extractor: time, width: 40}",
                                          "{name: log, extractor: trace, depth: 100}"),
     ['bad.yaml:12:50: error: invalid value 100 for lmics[lm].sniffers[task].dcapfs[log].depth (expected one of: 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536; records, a power of two 2..65536)']),
    ("axi4_data_width", GOOD.replace("{type: start_done}", "{type: axi4, direction: write, data_width: 48}"),
     ['bad.yaml:10:64: error: invalid value 48 for lmics[lm].sniffers[task].interfacer.data_width (expected one of: 8, 16, 32, 64, 128, 256, 512, 1024)']),
    ("axi4_missing_direction", GOOD.replace("{type: start_done}", "{type: axi4}"),
     ["bad.yaml:10:21: error: missing key 'direction' in lmics[lm].sniffers[task].interfacer (expected 'direction'; keys: type, direction, addr_width, data_width, id_width, per_beat, max_outstanding, latency_end)"]),
    ("axis_width_multiple_of_8", GOOD.replace("{type: start_done}", "{type: axis, data_width: 12}"),
     ['bad.yaml:10:46: error: data_width 12 is not a multiple of 8 in lmics[lm].sniffers[task].interfacer.data_width (expected 8..1024 in steps of 8)']),
    ("events_width_range", GOOD.replace("{type: start_done}", "{type: events, width: 33}"),
     ['bad.yaml:10:43: error: width 33 out of range in lmics[lm].sniffers[task].interfacer.width (expected 1..32)']),
    ("clock_period_negative", GOOD.replace("[axi, fast]", "[axi, {name: fast, period_ns: -5}]"),
     ['bad.yaml:4:41: error: period_ns -5 out of range in monitor.clocks[fast].period_ns (expected a value > 0 and <= 1000000)']),
    ("timing_unknown", GOOD.replace("[axi, fast]", "[axi, fast]\n  timing: quick"),
     ["bad.yaml:5:11: error: invalid value 'quick' for monitor.timing (expected one of: auto, fast, small)"]),
    ("clock_timing_auto_without_period", GOOD.replace("[axi, fast]", "[axi, {name: fast, timing: auto}]"),
     ["bad.yaml:4:38: error: clock 'fast' has timing: auto but no period_ns (expected period_ns, from which "
      "the generator chooses the blocks' variants, or timing: fast | small)"]),
    ("too_many_conditions", GOOD.replace("        dcapfs:", "        conditions: ["
                                         + ", ".join(["{mask: 1, value: 1}"] * 9) + "]\n        dcapfs:"),
     ['bad.yaml:11:21: error: lmics[lm].sniffers[task].conditions has 9 items (expected at most 8: the emitter takes up to 8 condition checkers)']),

    # ---- semantic checks ----------------------------------------------------
    ("duplicate_sniffer", GOOD + """      - name: task
        interfacer: {type: events}
        dcapfs:
          - {name: fires, extractor: event}
""", ["bad.yaml:13:15: error: duplicate sniffer name 'task' (first at line 9; expected sniffer names unique in the monitor: they prefix the top-level ports)"]),
    ("duplicate_dcapf_across_lmics", GOOD.replace("[axi, fast]", "[axi, fast]") + """  - name: lm2
    sniffers:
      - name: other
        interfacer: {type: events}
        dcapfs:
          - {name: busy, extractor: event}
""", ["bad.yaml:18:20: error: duplicate DCAPF name 'busy' (first at line 12; expected DCAPF names unique in the monitor: they name the C functions <monitor>_read_<dcapf>)"]),
    ("duplicate_lmic", GOOD + """  - name: lm
    sniffers:
      - name: other
        interfacer: {type: events}
        dcapfs:
          - {name: fires, extractor: event}
""", ["bad.yaml:13:11: error: duplicate LMIC name 'lm' (first at line 6; expected LMIC names unique in the monitor)"]),
    ("vhdl_reserved", GOOD.replace("name: busy", "name: signal"),
     ["bad.yaml:12:20: error: DCAPF name 'signal' is a reserved word in VHDL (expected a name reserved in neither VHDL nor C)"]),
    ("c_reserved", GOOD.replace("name: task", "name: volatile"),
     ["bad.yaml:9:15: error: sniffer name 'volatile' is a reserved word in C (expected a name reserved in neither VHDL nor C)"]),
    ("both_reserved", GOOD.replace("name: lm", "name: while"),
     ["bad.yaml:6:11: error: LMIC name 'while' is a reserved word in VHDL and C (expected a name reserved in neither VHDL nor C)"]),
    ("library_prefix", GOOD.replace("name: mon", "name: jointer_mon"),
     ["bad.yaml:3:9: error: monitor name 'jointer_mon' uses the library prefix 'jointer' (expected a name that cannot clash with jointer_* library entities)"]),
    ("unknown_clock", GOOD.replace("clock: fast", "clock: fats"),
     ["bad.yaml:4:17: error: clock 'fast' is declared but no LMIC uses it (expected every clock after the first, the bus clock, to drive an LMIC)",
      "bad.yaml:7:12: error: unknown clock 'fats' for lmics[lm] (did you mean 'fast'? expected a clock of monitor.clocks: axi, fast)"]),
    ("unused_clock", GOOD.replace("[axi, fast]", "[axi, fast, slow]"),
     ["bad.yaml:4:23: error: clock 'slow' is declared but no LMIC uses it (expected every clock after the first, the bus clock, to drive an LMIC)"]),
    ("event_lane_out_of_range", GOOD.replace("{type: start_done}", "{type: events, width: 2}").replace(
        "{name: busy, extractor: time, width: 40}", "{name: busy, extractor: event, event: 2}"),
     ['bad.yaml:12:51: error: event 2 out of range in lmics[lm].sniffers[task].dcapfs[busy]: the events interfacer has 2 lanes (expected 0..1)']),
    ("event_lane_single_lane", GOOD.replace("width: 40}", "width: 40, event: 1}"),
     ['bad.yaml:12:61: error: event 1 out of range in lmics[lm].sniffers[task].dcapfs[busy]: a start_done interfacer has one lane (expected 0)']),
    ("filter_low_above_high", GOOD.replace("width: 40}", "width: 40, filter: {low: 9, high: 2}}"),
     ['bad.yaml:12:62: error: filter of lmics[lm].sniffers[task].dcapfs[busy] is empty: low 9 > high 2 (expected low <= high)']),
    # one range, one base: hex for both bounds when either reads better in hex
    ("filter_low_above_high_hex", GOOD.replace("width: 40}", "width: 40, filter: {low: 0x20000000, high: 0x10000FFF}}"),
     ['bad.yaml:12:62: error: filter of lmics[lm].sniffers[task].dcapfs[busy] is empty: low 0x20000000 > high 0x10000FFF (expected low <= high)']),
    ("condition_range_empty_hex", GOOD.replace("        dcapfs:", "        conditions: [{range: [0x10001000, 4097]}]\n"
                                               "        dcapfs:"),
     ['bad.yaml:11:30: error: condition range [0x10001000, 0x1001] in lmics[lm].sniffers[task].conditions[0] is empty (expected low <= high)']),
    ("condition_range_empty", GOOD.replace("        dcapfs:", "        conditions: [{range: [5, 1]}]\n"
                                           "        dcapfs:"),
     ['bad.yaml:11:30: error: condition range [5, 1] in lmics[lm].sniffers[task].conditions[0] is empty (expected low <= high)']),
    ("condition_never_matches", GOOD.replace("        dcapfs:", "        conditions: [{mask: 0xF0, value: 0x0F}]\n"
                                             "        dcapfs:"),
     ['bad.yaml:11:42: error: condition in lmics[lm].sniffers[task].conditions[0] never matches: value 0x0000000F has bits outside mask 0x000000F0 (expected value & ~mask = 0)']),
    ("condition_mixed", GOOD.replace("        dcapfs:", "        conditions: [{mask: 1, value: 1, range: [0, 1]}]\n"
                                     "        dcapfs:"),
     ["bad.yaml:11:22: error: condition lmics[lm].sniffers[task].conditions[0] mixes 'range' with 'mask'/'value' (expected {mask: M, value: V} or {range: [LOW, HIGH]})"]),
    ("condition_missing_value", GOOD.replace("        dcapfs:", "        conditions: [{mask: 1}]\n"
                                             "        dcapfs:"),
     ["bad.yaml:11:22: error: missing key 'value' in lmics[lm].sniffers[task].conditions[0] (expected {mask: M, value: V} or {range: [LOW, HIGH]})"]),
    ("misspelled_extractor", GOOD.replace("extractor: time", "extracter: time"),
     ["bad.yaml:12:13: error: missing key 'extractor' in lmics[lm].sniffers[task].dcapfs[busy] (expected 'extractor': event, time, trace)",
      "bad.yaml:12:26: error: unknown key 'extracter' in lmics[lm].sniffers[task].dcapfs[busy] (did you mean 'extractor'? expected the required key 'extractor')"]),
    ("misspelled_interfacer_type", GOOD.replace("{type: start_done}", "{typ: start_done}"),
     ["bad.yaml:10:21: error: missing key 'type' in lmics[lm].sniffers[task].interfacer (expected 'type': axi4, axi4lite, axis, start_done, events, mark, axi_util, contention, pc, axi4_latency, axis_util)",
      "bad.yaml:10:22: error: unknown key 'typ' in lmics[lm].sniffers[task].interfacer (did you mean 'type'? expected the required key 'type')"]),
    ("emit_data_wrong_source", GOOD.replace("        dcapfs:", "        emit: {data: address}\n        dcapfs:"),
     ["bad.yaml:11:22: error: emit data 'address' is not available from a start_done interfacer in lmics[lm].sniffers[task] (expected state)"]),
    ("emit_tdest_without_tdest", GOOD.replace("{type: start_done}", "{type: axis}").replace(
        "        dcapfs:", "        emit: {data: tdest}\n        dcapfs:").replace("extractor: time", "extractor: event"),
     ["bad.yaml:11:22: error: emit data 'tdest' needs a TDEST in lmics[lm].sniffers[task] (expected interfacer dest_width >= 1)"]),
    ("mark_not_on_bus_clock", GOOD.replace("{type: start_done}", "{type: mark}").replace(
        "extractor: time", "extractor: event"),
     ["bad.yaml:10:21: error: mark sniffer 'task' is in LMIC 'lm' on clock 'fast' (expected an LMIC on the bus clock 'axi': MARK writes arrive on the bus clock)"]),
    ("two_mark_sniffers", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - {name: m1, interfacer: {type: mark}, dcapfs: [{name: c1, extractor: event}]}
      - {name: m2, interfacer: {type: mark}, dcapfs: [{name: c2, extractor: event}]}
""", ["bad.yaml:7:32: error: second mark sniffer 'm2' (the first is 'm1' at line 6; expected at most one: the global block has one MARK register)"]),
    ("too_many_irq_sources", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events, width: 1}
        dcapfs:
""" + "".join(f"          - {{name: t{i}, extractor: trace, depth: 2}}\n" for i in range(17)),
     ["bad.yaml:4:11: error: LMIC 'lm' needs 34 interrupt sources (expected at most 32: one per threshold_irq DCAPF, two per trace)"]),
    ("space_too_small", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  bus: {addr_width: 8}").replace(
        "{name: busy, extractor: time, width: 40}", "{name: log, extractor: trace, depth: 64}"),
     ['bad.yaml:5:21: error: the register space of 2048 bytes (2 windows of 1024 bytes) does not fit bus.addr_width 8 (expected addr_width >= 11)']),
    # monitor.platform: the choices, and the base addresses its PS reaches
    ("platform_misspelled", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  platform: zynqmq"),
     ["bad.yaml:5:13: error: invalid value 'zynqmq' for monitor.platform (did you mean 'zynqmp'? expected one of: zynq7000, zynqmp)"]),
    ("platform_base_beyond_32_bits", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  bus: {base_address: 0x400000000}"),
     ["bad.yaml:5:23: error: bus.base_address 0x400000000 is beyond the 32-bit address space of platform zynq7000 (Zynq-7000); monitor.platform names the PS: zynq7000 (32-bit), zynqmp (40-bit)"]),
    ("platform_base_outside_apertures", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  platform: zynqmp\n"
                                                     "  bus: {base_address: 0x43C00000}"),
     ["bad.yaml:6:23: error: bus.base_address 0x43C00000 (0x1000 bytes) is outside the PL apertures of platform zynqmp (Zynq UltraScale+): expected an address in M_AXI_HPM0_FPD 0xA0000000..0xAFFFFFFF; M_AXI_HPM1_FPD 0xB0000000..0xBFFFFFFF; M_AXI_HPM0_LPD 0x80000000..0x9FFFFFFF; M_AXI_HPM0_FPD 0x400000000..0x4FFFFFFFF; M_AXI_HPM1_FPD 0x500000000..0x5FFFFFFFF; M_AXI_HPM0_FPD 0x1000000000..0x47FFFFFFFF; M_AXI_HPM1_FPD 0x4800000000..0x7FFFFFFFFF; monitor.platform names the PS: zynq7000 (32-bit), zynqmp (40-bit)"]),
    ("platform_base_below_a_page", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  bus: {base_address: 0x43C00100}"),
     ["bad.yaml:5:23: error: bus.base_address 0x43C00100 is not a multiple of 0x1000 (Vivado's smallest address segment, and a page: UIO maps pages)"]),
    ("base_not_aligned", GOOD.replace("clocks: [axi, fast]", "clocks: [axi, fast]\n  bus: {addr_width: 12, "
                                      "base_address: 0x43C00100}"),
     ['bad.yaml:5:39: error: bus.base_address 0x43C00100 is not aligned to the 4096-byte register space of addr_width 12 (expected a multiple of 0x1000)']),
    ("collision_c_macro", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - {name: s, interfacer: {type: events}, dcapfs: [{name: addr, extractor: event}]}
""", ["bad.yaml:6:63: error: DCAPF 'addr' gives the C identifier 'MON_ADDR_WIDTH', which the generated code uses itself (expected names that stay distinct once prefixed)"]),
    ("collision_c_function", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs:
          - {name: x, extractor: event, threshold_irq: true}
          - {name: threshold_x, extractor: event}
""", ["bad.yaml:10:20: error: DCAPF 'threshold_x' gives the C identifier 'mon_read_threshold_x', which DCAPF 'x' (line 9) also gives (expected names that stay distinct once prefixed)"]),
    ("collision_top_port", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - {name: s_axi, interfacer: {type: axi4lite, direction: write}, dcapfs: [{name: c, extractor: event}]}
""", ["bad.yaml:6:16: error: sniffer 's_axi' gives the top-level VHDL identifier 's_axi_awaddr', which the generated code uses itself (expected names that stay distinct once prefixed)"]),
    ("collision_bus_interface", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - {name: irq, interfacer: {type: axis}, dcapfs: [{name: c, extractor: event}]}
""", ["bad.yaml:6:16: error: sniffer 'irq' gives the Vivado bus interface 'irq', which the generated code uses itself (expected names that stay distinct once prefixed)"]),
]

# ---- bus utilization / contention interfacers (axi_util, contention) ------
UTIL = """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: hp
        interfacer: {type: axi_util, channels: [ar, r]}
        dcapfs:
          - {name: stalls, extractor: event, event: r_stall}
      - name: arb
        interfacer: {type: contention, masters: 3}
        dcapfs:
          - {name: fights, extractor: event, event: contention}
"""

CASES += [
    ("util_unknown_lane", UTIL.replace("event: r_stall", "event: r_stal"),
     ["bad.yaml:9:53: error: unknown lane 'r_stal' in lmics[lm].sniffers[hp].dcapfs[stalls] (did you mean 'r_stall'? expected a lane of the axi_util interfacer: cycles, ar_transfer, ar_stall, ar_idle, r_transfer, r_stall, r_idle; or its number 0..6)"]),
    ("util_lane_of_unwatched_channel", UTIL.replace("event: r_stall", "event: aw_stall"),
     ["bad.yaml:9:53: error: lane 'aw_stall' in lmics[lm].sniffers[hp].dcapfs[stalls] is on channel aw, which the axi_util interfacer does not watch (expected a lane of its channels ar, r, or aw added to its channels)"]),
    ("util_lane_number_out_of_range", UTIL.replace("event: r_stall", "event: 7"),
     ['bad.yaml:9:53: error: event 7 out of range in lmics[lm].sniffers[hp].dcapfs[stalls]: the axi_util interfacer has 7 lanes (expected 0..6 or a lane name: cycles, ar_transfer, ar_stall, ar_idle, r_transfer, r_stall, r_idle)']),
    ("util_lane_name_on_events", UTIL.replace("{type: axi_util, channels: [ar, r]}", "{type: events, width: 2}"),
     ["bad.yaml:9:53: error: event 'r_stall' in lmics[lm].sniffers[hp].dcapfs[stalls] is a lane name, but an events interfacer has numbered lanes (expected 0..1)"]),
    ("util_bad_channel", UTIL.replace("channels: [ar, r]", "channels: [ar, rd]"),
     ["bad.yaml:7:53: error: invalid value 'rd' for lmics[lm].sniffers[hp].interfacer.channels[1] (expected one of: aw, w, b, ar, r)"]),
    ("util_duplicate_channel", UTIL.replace("channels: [ar, r]", "channels: [ar, r, ar]"),
     ["bad.yaml:7:56: error: channel 'ar' listed twice in lmics[lm].sniffers[hp].interfacer.channels (expected each of aw, w, b, ar, r at most once)"]),
    ("util_no_channel", UTIL.replace("channels: [ar, r]", "channels: []"),
     ['bad.yaml:7:48: error: lmics[lm].sniffers[hp].interfacer.channels has 0 items (expected at least 1: the channels aw, w, b, ar, r, each at most once)']),
    ("util_bad_protocol", UTIL.replace("channels: [ar, r]", "protocol: axi3"),
     ["bad.yaml:7:48: error: invalid value 'axi3' for lmics[lm].sniffers[hp].interfacer.protocol (did you mean 'axi4'? expected one of: axi4, axi4lite)"]),
    ("util_key_of_other_type", UTIL.replace("channels: [ar, r]", "masters: 2"),
     ["bad.yaml:7:38: error: unknown key 'masters' in lmics[lm].sniffers[hp].interfacer ('masters' is for type contention; expected one of: type, protocol, channels)"]),
    ("contention_masters_range", UTIL.replace("masters: 3", "masters: 14"),
     ['bad.yaml:11:49: error: masters 14 out of range in lmics[lm].sniffers[arb].interfacer.masters (expected 1..13)']),
    ("contention_unknown_lane", UTIL.replace("event: contention", "event: wait_3"),
     ["bad.yaml:13:53: error: unknown lane 'wait_3' in lmics[lm].sniffers[arb].dcapfs[fights] (did you mean 'wait_2'? expected a lane of the contention interfacer: cycles, contention, single_wait, no_wait, busy, idle, grant_0, wait_0, grant_1, wait_1, grant_2, wait_2; or its number 0..11)"]),
    ("contention_lane_not_a_name", UTIL.replace("event: contention", "event: Wait-0"),
     ["bad.yaml:13:53: error: invalid text 'Wait-0' for lmics[lm].sniffers[arb].dcapfs[fights].event (expected a lane number 0..31 or a lane name such as r_stall)"]),
    ("contention_lane_wrong_type", UTIL.replace("event: contention", "event: 1.5"),
     ['bad.yaml:13:53: error: wrong type for lmics[lm].sniffers[arb].dcapfs[fights].event: 1.5 is a number (expected an integer or a string: a lane number 0..31 or a lane name such as r_stall)']),
    ("contention_emit_data", UTIL.replace("        dcapfs:\n          - {name: fights",
                                          "        emit: {data: stalls}\n        dcapfs:\n          - {name: fights"),
     ["bad.yaml:12:22: error: emit data 'stalls' is not available from a contention interfacer in lmics[lm].sniffers[arb] (expected waiting)"]),
    # ---- axi4_latency interfacer, histogram aggregator ----
    ("latency_read_response", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: axi4_latency, direction: read, end: response}
        dcapfs: [{name: c, extractor: event}]
""", ["bad.yaml:7:64: error: end 'response' in lmics[lm].sniffers[s] is for writes (a read ends with its RLAST beat; expected end: last)"]),
    ("latency_bad_end", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: axi4_latency, direction: write, end: bresp}
        dcapfs: [{name: c, extractor: event}]
""", ["bad.yaml:7:65: error: invalid value 'bresp' for lmics[lm].sniffers[s].interfacer.end (expected one of: last, response)"]),
    ("latency_outstanding", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: axi4_latency, direction: read, max_outstanding: 33}
        dcapfs: [{name: c, extractor: event}]
""", ['bad.yaml:7:76: error: max_outstanding 33 out of range in lmics[lm].sniffers[s].interfacer.max_outstanding (expected 1..32)']),
    ("latency_per_beat", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: axi4_latency, direction: read, per_beat: true}
        dcapfs: [{name: c, extractor: event}]
""", ["bad.yaml:7:59: error: unknown key 'per_beat' in lmics[lm].sniffers[s].interfacer ('per_beat' is for type axi4; expected one of: type, direction, end, addr_width, data_width, id_width, max_outstanding)"]),
    ("latency_emit_address", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: axi4_latency, direction: read}
        emit: {data: address}
        dcapfs: [{name: c, extractor: event}]
""", ["bad.yaml:8:22: error: emit data 'address' is not available from a axi4_latency interfacer in lmics[lm].sniffers[s] (expected latency)"]),
    ("histogram_buckets_other_agg", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: max, buckets: 4}]
""", ["bad.yaml:8:72: error: 'buckets' in lmics[lm].sniffers[s].dcapfs[c] is only for aggregator histogram (this DCAPF's aggregator is max)"]),
    ("histogram_too_many_buckets", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, buckets: 65}]
""", ['bad.yaml:8:78: error: buckets 65 out of range in lmics[lm].sniffers[s].dcapfs[c].buckets (expected 2..64)']),
    ("histogram_one_bucket", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, buckets: 1}]
""", ['bad.yaml:8:78: error: buckets 1 out of range in lmics[lm].sniffers[s].dcapfs[c].buckets (expected 2..64)']),
    ("histogram_bounds_count", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, buckets: 4, boundaries: [1, 2]}]
""", ['bad.yaml:8:93: error: 2 boundaries in lmics[lm].sniffers[s].dcapfs[c] for 4 buckets (expected buckets - 1 = 3)']),
    ("histogram_bounds_order", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, boundaries: [1, 5, 5, 9]}]
""", ['bad.yaml:8:88: error: boundary 5 in lmics[lm].sniffers[s].dcapfs[c] is not above the one before it (5; expected strictly increasing boundaries)']),
    ("histogram_bound_zero", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, boundaries: [0, 5]}]
""", ['bad.yaml:8:82: error: boundary 0 in lmics[lm].sniffers[s].dcapfs[c] out of range (expected pow2 or a list of strictly increasing boundaries 1..0x7FFFFFFF, at most 63 of them)']),
    ("histogram_bound_big", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, boundaries: [5, 0x80000000]}]
""", ['bad.yaml:8:85: error: boundary 0x80000000 in lmics[lm].sniffers[s].dcapfs[c] out of range (expected pow2 or a list of strictly increasing boundaries 1..0x7FFFFFFF, at most 63 of them)']),
    ("histogram_bounds_word", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, boundaries: log2}]
""", ["bad.yaml:8:81: error: boundaries 'log2' in lmics[lm].sniffers[s].dcapfs[c] is neither pow2 nor a list (expected pow2 or a list of strictly increasing boundaries 1..0x7FFFFFFF)"]),
    ("histogram_threshold", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: histogram, threshold_irq: true}]
""", ['bad.yaml:8:84: error: threshold_irq in lmics[lm].sniffers[s].dcapfs[c]: a histogram has no single result to compare (expected threshold_irq: false)']),
    ("histogram_trace", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: trace, buckets: 4}]
""", ["bad.yaml:8:46: error: unknown key 'buckets' in lmics[lm].sniffers[s].dcapfs[c] ('buckets' is for extractor event, time; expected one of: name, description, extractor, depth, mode, sink, event, lanes, sync, spans, filter)"]),
    ("mean_threshold", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events}
        dcapfs: [{name: c, extractor: event, aggregator: mean, threshold_irq: true}]
""", ['bad.yaml:8:79: error: threshold_irq in lmics[lm].sniffers[s].dcapfs[c]: a mean has no single result to compare (expected threshold_irq: false)']),

    # trace sinks (mode: sink)
] + [(name, SINK_BASE.replace("SINK", dcapf), msgs) for name, dcapf, msgs in [
    ("sink_with_depth", "mode: sink, depth: 64",
     ["bad.yaml:8:65: error: 'depth' in lmics[lm].sniffers[s].dcapfs[t]: a mode: sink trace has no buffer of its own, its records go to a ring in memory (expected no 'depth'; size the ring at run time and the FIFO with sink: {fifo_depth: N})"]),
    ("sink_without_mode_sink", "mode: relay, sink: {data_width: 64}",
     ["bad.yaml:8:65: error: 'sink' in lmics[lm].sniffers[s].dcapfs[t] is only for mode: sink (this trace's mode is relay; expected mode: sink, or no 'sink' key)"]),
    ("sink_fifo_smaller_than_burst", "mode: sink, sink: {data_width: 128, max_burst: 16, fifo_depth: 16}",
     ["bad.yaml:8:109: error: sink fifo_depth 16 in lmics[lm].sniffers[s].dcapfs[t] is smaller than a burst (16 beats of 128 bits = 32 records; expected fifo_depth >= 32, or a smaller max_burst)"]),
    ("sink_fifo_not_pow2", "mode: sink, sink: {fifo_depth: 48}",
     ["bad.yaml:8:77: error: invalid value 48 for lmics[lm].sniffers[s].dcapfs[t].sink.fifo_depth (expected one of: 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096; records, a power of two 4..4096 holding a burst)"]),
    ("sink_data_width", "mode: sink, sink: {data_width: 256}",
     ["bad.yaml:8:77: error: invalid value 256 for lmics[lm].sniffers[s].dcapfs[t].sink.data_width (expected one of: 32, 64, 128)"]),
    ("sink_max_burst", "mode: sink, sink: {max_burst: 512}",
     ["bad.yaml:8:76: error: max_burst 512 out of range in lmics[lm].sniffers[s].dcapfs[t].sink.max_burst (expected 2..256)"]),
    ("sink_ring_bytes", "mode: sink, sink: {ring_bytes: 5000}",
     ["bad.yaml:8:77: error: ring_bytes 5000 is not a multiple of 4096 in lmics[lm].sniffers[s].dcapfs[t].sink.ring_bytes (expected 4096..0x80000000 in steps of 4096)"]),
    ("sink_ring_bytes_above_2gb", "mode: sink, sink: {ring_bytes: 0x100000000}",
     ["bad.yaml:8:77: error: ring_bytes 0x100000000 out of range in lmics[lm].sniffers[s].dcapfs[t].sink.ring_bytes (expected 4096..0x80000000)"]),
    ("sink_ring_bytes_zero", "mode: sink, sink: {ring_bytes: 0}",
     ["bad.yaml:8:77: error: ring_bytes 0 out of range in lmics[lm].sniffers[s].dcapfs[t].sink.ring_bytes (expected 4096..0x80000000)"]),
    ("sink_unknown_key", "mode: sink, sink: {burst: 8}",
     ["bad.yaml:8:65: error: unknown key 'burst' in lmics[lm].sniffers[s].dcapfs[t].sink (did you mean 'max_burst'? expected one of: data_width, max_burst, fifo_depth, flush_timeout, sync_period, idle_flush, encoding, ring_bytes)"]),
    ("sink_sync_period_raw", "mode: sink, sink: {sync_period: 64}",
     ["bad.yaml:8:78: error: sink sync_period in lmics[lm].sniffers[s].dcapfs[t] is only for encoding: compact (this sink's encoding is raw; expected encoding: compact, or no 'sync_period')"]),
    ("sink_sync_period_range", "mode: sink, sink: {encoding: compact, sync_period: 1}",
     ["bad.yaml:8:97: error: sync_period 1 out of range in lmics[lm].sniffers[s].dcapfs[t].sink.sync_period (expected 2..0x10000)"]),
]]

# an AXI4 tap whose address is as wide as its addr_width: values that do not fit it
TAP_BASE = """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: dma
        interfacer: {type: axi4, direction: write, addr_width: AW}
        CONDdcapfs: [{name: d, extractor: EXTRA}]
"""
CASES += [(name, TAP_BASE.replace("AW", aw).replace("COND", cond).replace("EXTRA", extra), msgs)
          for name, aw, cond, extra, msgs in [
    ("filter_above_4g_on_32_bit_tap", "32", "", "event, filter: {low: 0x810000000, high: 0x81FFFFFFF}",
     ["bad.yaml:8:60: error: filter low 0x8_1000_0000 of lmics[lm].sniffers[dma].dcapfs[d] does not fit the 32-bit event data of sniffer 'dma' (expected at most 0xFFFF_FFFF; the tap's addr_width is 32: an address up to 0x8_1000_0000 needs addr_width >= 36)",
      "bad.yaml:8:79: error: filter high 0x8_1FFF_FFFF of lmics[lm].sniffers[dma].dcapfs[d] does not fit the 32-bit event data of sniffer 'dma' (expected at most 0xFFFF_FFFF; the tap's addr_width is 32: an address up to 0x8_1FFF_FFFF needs addr_width >= 36)"]),
    ("filter_above_tap_width", "40", "", "event, filter: {low: 0, high: 0x1FFFFFFFFFF}",
     ["bad.yaml:8:69: error: filter high 0x1FF_FFFF_FFFF of lmics[lm].sniffers[dma].dcapfs[d] does not fit the 40-bit event data of sniffer 'dma' (expected at most 0xFF_FFFF_FFFF; the tap's addr_width is 40: an address up to 0x1FF_FFFF_FFFF needs addr_width >= 41)"]),
    ("condition_above_tap_width", "36", "conditions: [{range: [0, 0x1000000000]}]\n        ", "event",
     ["bad.yaml:8:22: error: condition range high 0x10_0000_0000 in lmics[lm].sniffers[dma].conditions[0] does not fit the 36-bit event data of sniffer 'dma' (expected at most 0xF_FFFF_FFFF; the tap's addr_width is 36: an address up to 0x10_0000_0000 needs addr_width >= 37)"]),
    ("trace_on_wide_tap", "40", "", "trace",
     ["bad.yaml:8:39: error: trace lmics[lm].sniffers[dma].dcapfs[d]: a trace record holds 32 data bits, the event data of sniffer 'dma' has 40 (expected a trace on a sniffer whose data fits 32 bits, e.g. a tap with addr_width 32, or an event or time DCAPF here)"]),
]]

# one tap per bus: a conditioned sniffer and a lane that carries no address / TDATA
CASES += [
    ("condition_on_latency_lane", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: dma
        interfacer: {type: axi4, direction: read}
        conditions: [{range: [0x1000, 0x1FFF]}]
        dcapfs: [{name: lat, extractor: event, event: latency, sample: data, aggregator: max}]
""", ["bad.yaml:9:55: error: lane 'latency' of lmics[lm].sniffers[dma].dcapfs[lat] carries no address: the conditions of sniffer 'dma' cannot apply to it (expected no conditions, or this DCAPF in a sniffer of its own on the same bus)"]),
    ("axi4_latency_end_read", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: dma
        interfacer: {type: axi4, direction: read, latency_end: response}
        dcapfs: [{name: lat, extractor: event, event: latency, sample: data, aggregator: max}]
""", ["bad.yaml:7:64: error: latency_end 'response' in lmics[lm].sniffers[dma] is for writes (a read ends with its RLAST beat; expected latency_end: last)"]),
    ("axi4_max_outstanding_33", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: dma
        interfacer: {type: axi4, direction: read, max_outstanding: 33}
        dcapfs: [{name: b, extractor: event}]
""", ["bad.yaml:7:68: error: max_outstanding 33 out of range in lmics[lm].sniffers[dma].interfacer.max_outstanding (expected 1..32)"]),
    ("trace_lanes_of_two_taps", """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: dma
        interfacer: {type: axi4, direction: write, addr_width: 16}
        dcapfs: [{name: t, extractor: trace, mode: sink, filter: none, lanes: [bytes, latency]}]
""", ["bad.yaml:8:79: error: lane 'latency' of trace lmics[lm].sniffers[dma].dcapfs[t] is not a lane of the axi4 tap's own events (expected several lanes of one interfacer, e.g. an events sniffer's, or a trace of that lane alone)"]),
]

# several lanes in one trace, host syncs, spans: a trace of an events sniffer
LANES_BASE = """
jointer: 1
monitor: {name: mon, clocks: [axi]}
lmics:
  - name: lm
    sniffers:
      - name: s
        interfacer: {type: events, width: 3, data_width: DW}
        dcapfs: [{name: t, extractor: trace, filter: none, TRACE}]
"""
CASES += [(name, LANES_BASE.replace("DW", dw).replace("TRACE", tr), msgs)
          for name, dw, tr, msgs in [
    ('lanes_and_event', '16', 'mode: sink, event: 1, lanes: [0, 1]',
     ["bad.yaml:8:89: error: lmics[lm].sniffers[s].dcapfs[t] has both 'event' and 'lanes' (expected one of them: event: N records one lane, lanes: [...] several, each record tagged with the lanes that fired)"]),
    ('lanes_twice', '16', 'mode: sink, lanes: [0, 1, 0]',
     ["bad.yaml:8:86: error: lane 0 is listed twice in 'lanes' of lmics[lm].sniffers[s].dcapfs[t] (expected each lane once)"]),
    ('lanes_out_of_range', '16', 'mode: sink, lanes: [0, 3]',
     ['bad.yaml:8:83: error: event 3 out of range in lmics[lm].sniffers[s].dcapfs[t].lanes: the events interfacer has 3 lanes (expected 0..2)']),
    ('lanes_name_on_numbered', '16', 'mode: sink, lanes: [start]',
     ["bad.yaml:8:79: error: event 'start' in lmics[lm].sniffers[s].dcapfs[t].lanes is a lane name, but an events interfacer has numbered lanes (expected 0..2)"]),
    ('lanes_value_too_wide', '30', 'mode: sink, lanes: [0, 1, 2], sync: true',
     ["bad.yaml:8:79: error: trace lmics[lm].sniffers[s].dcapfs[t]: 3 lanes and sync take 4 tag bits of the record's 32 data bits, and the event data of sniffer 's' has 30 bits (expected event data of at most 28 bits: fewer lanes, or a narrower value)"]),
    ('sync_without_lanes', '16', 'mode: sink, sync: true',
     ["bad.yaml:8:78: error: sync: true in lmics[lm].sniffers[s].dcapfs[t] needs mode: sink and a 'lanes' list (this trace: mode sink, no lanes; the sync is a tag bit written through the sink's CONTROL register)"]),
    ('sync_on_buffer', '16', 'lanes: [0, 1], sync: true',
     ["bad.yaml:8:81: error: sync: true in lmics[lm].sniffers[s].dcapfs[t] needs mode: sink and a 'lanes' list (this trace: mode stop; the sync is a tag bit written through the sink's CONTROL register)"]),
    ('span_unknown_lane', '16', 'mode: sink, lanes: [{lane: 0, name: start}, 1], spans: [{name: x, begin: start, end: stop}]',
     ["bad.yaml:8:145: error: span 'x' end 'stop' is not a lane of lmics[lm].sniffers[s].dcapfs[t] (expected one of its lanes: start (0), lane1 (1))"]),
    ('span_begin_only', '16', 'mode: sink, lanes: [0, 1], spans: [{name: x, begin: 0}]',
     ["bad.yaml:8:95: error: span 'x' in lmics[lm].sniffers[s].dcapfs[t] has 'begin' only (expected both begin and end lanes, or neither: the event value opens (non-zero) and closes (zero) it)"]),
    ('span_same_lane', '16', 'mode: sink, lanes: [0, 1], spans: [{name: x, begin: 1, end: 1}]',
     ["bad.yaml:8:120: error: span 'x' in lmics[lm].sniffers[s].dcapfs[t] begins and ends on the same lane (expected two different lanes)"]),
    ('span_lanes_needed', '16', 'mode: sink, spans: [{name: x, begin: 0, end: 1}]',
     ["bad.yaml:8:97: error: span 'x' of lmics[lm].sniffers[s].dcapfs[t]: 'begin' needs a 'lanes' list in the trace (expected lanes: [...] naming the lanes that begin and end it, or a span without begin/end: the event value opens and closes it)", "bad.yaml:8:105: error: span 'x' of lmics[lm].sniffers[s].dcapfs[t]: 'end' needs a 'lanes' list in the trace (expected lanes: [...] naming the lanes that begin and end it, or a span without begin/end: the event value opens and closes it)"]),
    ('span_duplicate', '16', 'mode: sink, lanes: [0, 1], spans: [{name: x, begin: 0, end: 1}, {name: x}]',
     ["bad.yaml:8:131: error: duplicate span name 'x' (first at line 8; expected span names unique in lmics[lm].sniffers[s].dcapfs[t]'s spans)"]),
    ('span_bad_id', '16', 'mode: sink, lanes: [0, 1], spans: [{name: x, begin: 0, end: 1, id: tile}]',
     ["bad.yaml:8:127: error: invalid value 'tile' for lmics[lm].sniffers[s].dcapfs[t].spans[x].id (expected one of: value, none)"]),
    ('lanes_empty', '16', 'mode: sink, lanes: []',
     ['bad.yaml:8:79: error: lmics[lm].sniffers[s].dcapfs[t].lanes has 0 items (expected at least 1)']),
]]
