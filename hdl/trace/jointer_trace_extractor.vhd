-- SPDX-License-Identifier: MIT
-- jointer_trace_extractor: the trace DCAPF (doc/design.md; extractor "trace"):
-- Init DCAPF (bounds) + Filter (both optional: has_filter_g) + record writer
-- + trace RAM. For each event with ev_good and run_en and (not use_filter or
-- low <= ev_data <= high) it writes the record {timestamp, ev_data}: word
-- 2i = timestamp, word 2i+1 = data of record slot i.
--   tr_wptr     : slot of the next record (0..depth-1)
--   tr_fill     : records held, saturates at depth; tr_full = (fill = depth)
--                 (stop and ring: wptr until wptr first wraps, then depth,
--                 from one flag; relay: a counter)
--   tr_overflow : sticky; stop mode: an event was dropped because the buffer
--                 was full; ring mode: a record was overwritten
-- Stop mode keeps the first depth records (wptr wraps to 0 with the last
-- one); ring mode overwrites the oldest. In both modes the oldest record is
-- at slot (tr_full ? tr_wptr : 0). clear (wins over a record of the same
-- cycle) empties the buffer (wptr, fill, flags); the bounds stay. A cycle
-- with rst records nothing (the RAM is not written either).
-- Relay mode (trace_relay_c, a lossless drain while the producer runs): a
-- ring the host empties. Records are written at wptr (wrapping) while fill <
-- depth; an event that finds the buffer full is dropped, sets tr_overflow
-- and counts in tr_lost (32 bits, saturating). The oldest unread record is
-- at tr_rptr. The host reads records from tr_rptr on and releases them with
-- a one-cycle tr_ack carrying the count tr_ack_n: min(tr_ack_n, fill) records
-- are released (rptr advances, fill drops), so no host write can corrupt
-- the state. The hardware never writes a slot the host has not released,
-- so records read before the ack are stable. An ack and a record in the same
-- cycle both count (fill - released + 1); the write decision uses the fill
-- before the ack. clear/rst zero rptr and lost too. Outside relay mode
-- tr_rptr and tr_lost read 0 and tr_ack is ignored.
-- Sink mode (trace_sink_c): no RAM and no buffer state: every
-- record is offered on rec_valid / rec_ts / rec_data (the filter applied) to
-- a jointer_trace_sink_axi, which writes it into a ring in memory; tr_wptr,
-- tr_fill, tr_full, tr_overflow, tr_rptr, tr_lost and tr_rd_data read 0.
-- Outside sink mode rec_valid is 0.
-- Several lanes (lanes_g > 0): ev_lanes holds lanes_g event strobes of the
-- sniffer (the generator picks them: YAML `lanes:`), and a record is written
-- in every cycle where one of them is good (run_en, filter) or, with sync_g,
-- where `sync` pulses (a host synchronisation, recorded whatever run_en and
-- the filter say). Its data word carries a tag in its low bits:
--   data = ev_data(31 - t downto 0) & sync & (ev_lanes and accepted)
-- with t = lanes_g + (1 with sync_g) tag bits: bit i (i < lanes_g) = lane i
-- happened in this cycle (several lanes in one cycle: one record, several
-- bits; nothing is lost), bit lanes_g = the host's sync (with sync_g). The
-- event data must fit 32 - t bits (the generator checks it). lanes_g = 0:
-- one lane (ev_good), data = ev_data, as before.
-- Host read port: tr_rd_data = word tr_rd_addr (low depth_log2_g + 1 bits)
-- one cycle later; reading a slot in the cycle it is written returns its old
-- content.
-- No filter (has_filter_g = false): no Init DCAPF, no comparator; FILTERING
-- records like NO_FILTERING (every event with ev_good and run_en) and INIT
-- loads addressed to it are ignored (the INIT register layout, 2 words per
-- DCAPF, does not change).
--   index_g      : position in the sniffer, matched against init_sel
--   depth_log2_g : log2 of the number of records (1..16)
--   mode_g       : trace_stop_c | trace_ring_c | trace_relay_c | trace_sink_c
--   has_filter_g : instantiate the filter (Init DCAPF + comparator), default true
--   low_reset_g, high_reset_g : filter bounds after reset (unused without a filter)
--   lanes_g      : 0 (one lane: ev_good) or 1..16 lanes recorded with a tag (ev_lanes)
--   sync_g       : lanes_g > 0 only: `sync` writes a tagged record (tag bit lanes_g)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_trace_extractor is
  generic (
    index_g      : natural  := 0;
    depth_log2_g : positive := 8;
    mode_g       : natural  := trace_stop_c;
    has_filter_g : boolean  := true;
    low_reset_g  : std_logic_vector(data_w_c - 1 downto 0) := (others => '0');
    high_reset_g : std_logic_vector(data_w_c - 1 downto 0) := (others => '1');
    lanes_g      : natural  := 0;
    sync_g       : boolean  := false);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    -- control, from the dispenser
    run_en      : in  std_logic;
    use_filter  : in  std_logic;
    clear       : in  std_logic;
    init_we     : in  std_logic;
    init_sel    : in  std_logic_vector(7 downto 0);
    init_hi     : in  std_logic;
    init_data   : in  std_logic_vector(data_w_c - 1 downto 0);
    -- event instance (one lane) and the time it happens
    ev_good     : in  std_logic := '0';
    ev_data     : in  std_logic_vector(data_w_c - 1 downto 0);
    -- several lanes (lanes_g > 0) and the host's synchronisation pulse (sync_g)
    ev_lanes    : in  std_logic_vector(maximum(lanes_g, 1) - 1 downto 0) := (others => '0');
    sync        : in  std_logic := '0';
    timestamp   : in  std_logic_vector(31 downto 0);
    -- state
    tr_wptr     : out std_logic_vector(31 downto 0);
    tr_fill     : out std_logic_vector(31 downto 0);
    tr_full     : out std_logic;
    tr_overflow : out std_logic;
    -- relay mode: host release (one-cycle pulse + record count), read pointer, lost records
    tr_ack      : in  std_logic := '0';
    tr_ack_n    : in  std_logic_vector(31 downto 0) := (others => '0');
    tr_rptr     : out std_logic_vector(31 downto 0);
    tr_lost     : out std_logic_vector(31 downto 0);
    -- host read port
    tr_rd_addr  : in  std_logic_vector(31 downto 0) := (others => '0');
    tr_rd_data  : out std_logic_vector(31 downto 0);
    -- sink mode: the record stream (to jointer_trace_sink_axi)
    rec_valid   : out std_logic;
    rec_ts      : out std_logic_vector(31 downto 0);
    rec_data    : out std_logic_vector(31 downto 0));
end entity jointer_trace_extractor;

architecture rtl of jointer_trace_extractor is
  constant d_c : positive := depth_log2_g;
  signal in_range  : std_logic;  -- '1' without a filter
  signal filter_en : std_logic;  -- use_filter, for a trace that has a filter
  signal record_en : std_logic;  -- an event to record
  signal full      : std_logic;
  signal we        : std_logic;
  signal wptr_r    : unsigned(d_c - 1 downto 0);
  signal fill      : unsigned(d_c downto 0);  -- 0..depth
  signal ovf_r     : std_logic;
  signal wdata     : std_logic_vector(63 downto 0);
  signal rdata     : std_logic_vector(63 downto 0);
  signal rd_hi_r   : std_logic;  -- the word read is the data half
  signal released  : unsigned(d_c downto 0);  -- relay: records the host releases this cycle
  constant relay_c : boolean := mode_g = trace_relay_c;
  constant sink_c  : boolean := mode_g = trace_sink_c;
  constant tag_c   : natural := lanes_g + boolean'pos(sync_g and lanes_g > 0);  -- tag bits
  signal ev_ok     : std_logic;  -- run_en and the filter let an event through
  signal lane_ev   : std_logic;  -- an event on a recorded lane
  signal sync_ev   : std_logic;  -- a host synchronisation
  signal rec_word  : std_logic_vector(31 downto 0);  -- the record's data word
begin

  assert depth_log2_g <= 16
    report "jointer_trace_extractor: depth_log2_g must be 1..16" severity failure;
  assert mode_g = trace_stop_c or mode_g = trace_ring_c or mode_g = trace_relay_c
         or mode_g = trace_sink_c
    report "jointer_trace_extractor: mode_g must be trace_stop_c, trace_ring_c, trace_relay_c or trace_sink_c"
    severity failure;
  assert index_g <= 255
    report "jointer_trace_extractor: index_g must be 0..255" severity failure;
  assert lanes_g <= 16
    report "jointer_trace_extractor: lanes_g must be 0..16" severity failure;
  assert lanes_g > 0 or not sync_g
    report "jointer_trace_extractor: sync_g needs lanes_g > 0 (the sync is a tag bit)" severity failure;

  g_filter : if has_filter_g generate
    signal low, high : std_logic_vector(data_w_c - 1 downto 0);
  begin
    u_init : entity work.jointer_dcapf_init
      generic map (index_g => index_g, low_reset_g => low_reset_g, high_reset_g => high_reset_g)
      port map (clk => clk, rst => rst, init_we => init_we, init_sel => init_sel,
                init_hi => init_hi, init_data => init_data, low => low, high => high);

    u_filter : entity work.jointer_dcapf_filter
      port map (data => ev_data, low => low, high => high, in_range => in_range);

    filter_en <= use_filter;
  end generate;

  -- no filter: no bounds, no comparator, INIT loads ignored; FILTERING = NO_FILTERING
  g_no_filter : if not has_filter_g generate
    in_range  <= '1';
    filter_en <= '0';
  end generate;

  ev_ok     <= run_en and (not filter_en or in_range);
  record_en <= ((lane_ev and ev_ok) or sync_ev) and not clear and not rst;
  full      <= fill(d_c);
  we        <= record_en and (not full or to_sl(mode_g = trace_ring_c)) and to_sl(not sink_c);

  process (clk)
  begin
    if rising_edge(clk) then
      if we = '1' then
        wptr_r <= wptr_r + 1;
      end if;
      if record_en = '1' and full = '1' then
        ovf_r <= '1';
      end if;
      rd_hi_r <= tr_rd_addr(0);
      if clear = '1' or rst = '1' then
        wptr_r <= (others => '0');
        ovf_r  <= '0';
      end if;
    end if;
  end process;

  -- stop and ring: fill is wptr until wptr first wraps, then depth (full_r)
  g_fill_wrap : if not relay_c generate
    signal full_r : std_logic;
  begin
    fill <= full_r & (wptr_r and not (d_c - 1 downto 0 => full_r));
    process (clk)
    begin
      if rising_edge(clk) then
        if we = '1' and wptr_r = 2 ** d_c - 1 then
          full_r <= '1';
        end if;
        if clear = '1' or rst = '1' then
          full_r <= '0';
        end if;
      end if;
    end process;
  end generate;

  g_relay : if relay_c generate
    signal rptr_r : unsigned(d_c - 1 downto 0);
    signal lost_r : unsigned(31 downto 0);
    signal fill_r : unsigned(d_c downto 0);
  begin
    fill <= fill_r;
    -- min(tr_ack_n, fill) while tr_ack, else 0
    released <= (others => '0') when tr_ack = '0'
                else fill_r when unsigned(tr_ack_n) > resize(fill_r, 32)
                else resize(unsigned(tr_ack_n), d_c + 1);

    process (clk)
    begin
      if rising_edge(clk) then
        -- fill: + a record, - the records released
        if we = '1' and full = '0' then
          fill_r <= fill_r - released + 1;
        else
          fill_r <= fill_r - released;
        end if;
        rptr_r <= rptr_r + released(d_c - 1 downto 0);  -- released <= depth: mod depth
        if record_en = '1' and full = '1' and lost_r /= x"FFFFFFFF" then
          lost_r <= lost_r + 1;
        end if;
        if clear = '1' or rst = '1' then
          fill_r <= (others => '0');
          rptr_r <= (others => '0');
          lost_r <= (others => '0');
        end if;
      end if;
    end process;

    tr_rptr <= std_logic_vector(resize(rptr_r, 32));
    tr_lost <= std_logic_vector(lost_r);
  end generate;

  g_no_relay : if not relay_c generate
    released <= (others => '0');
    tr_rptr  <= (others => '0');
    tr_lost  <= (others => '0');
  end generate;

  -- one lane: the event data as it is
  g_one_lane : if lanes_g = 0 generate
    lane_ev  <= ev_good;
    sync_ev  <= '0';
    rec_word <= ev_data;
  end generate;

  -- several lanes: the event data shifted up, the tag below it
  g_lanes : if lanes_g > 0 generate
    signal tag : std_logic_vector(tag_c - 1 downto 0);
  begin
    lane_ev <= or ev_lanes;
    sync_ev <= sync when sync_g else '0';
    tag(lanes_g - 1 downto 0) <= ev_lanes and (lanes_g - 1 downto 0 => ev_ok);
    g_sync_bit : if sync_g generate
      tag(lanes_g) <= sync;
    end generate;
    rec_word <= ev_data(31 - tag_c downto 0) & tag;
  end generate;

  wdata <= rec_word & timestamp;

  g_ram : if not sink_c generate
    u_ram : entity work.jointer_trace_ram
      generic map (depth_log2_g => d_c, width_g => 64)
      port map (clk => clk, we => we, waddr => std_logic_vector(wptr_r), wdata => wdata,
                raddr => tr_rd_addr(d_c downto 1), rdata => rdata);
    rec_valid <= '0';
  end generate;

  -- sink mode: the records leave as a stream; no RAM (wptr, fill stay 0: we = 0)
  g_sink : if sink_c generate
    rdata     <= (others => '0');
    rec_valid <= record_en;
  end generate;
  rec_ts   <= timestamp;
  rec_data <= rec_word;

  tr_rd_data  <= rdata(63 downto 32) when rd_hi_r = '1' else rdata(31 downto 0);
  tr_wptr     <= std_logic_vector(resize(wptr_r, 32));
  tr_fill     <= std_logic_vector(resize(fill, 32));
  tr_full     <= full;
  tr_overflow <= ovf_r;

end architecture rtl;
