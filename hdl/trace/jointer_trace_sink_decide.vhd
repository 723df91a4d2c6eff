-- SPDX-License-Identifier: MIT
-- jointer_trace_sink_decide: the decision pipeline of jointer_trace_sink_axi,
-- which decides the sink's next AXI4 burst from the free space of the ring.
-- Four registered stages, each one carry chain or compare deep (no reset:
-- the sink holds off issuing for the 4 cycles after a reset, a clear or an
-- issue, until the stages are current again):
--   1: diff = rptr - next_off - 1 (its sign on top); rptr_big = rptr >= size;
--      page_room = min(max burst, records to the 4 KB page end); waiting =
--      written - assigned (records not yet in a burst); last_page: next_off
--      is in the ring's last page; the flush timeout
--   2: free = (rptr - next_off - 1) mod size, the free records
--   3: limit = min(page_room, free), 0 when rptr >= size
--   4: recs = min(waiting, limit), due when waiting >= limit or on the flush
--      timeout (and neither is 0); len = its AWLEN. 128 bits: an odd
--      next_off or a single record goes alone in one 64-bit beat (narrow),
--      else an even number of records.
-- The stages are fed every cycle, so the outputs mix samples a few cycles
-- apart; written and rptr lag, which only under-counts records or space.
-- rptr and size are multiples of a page (the sink's registers), so page
-- numbers are compared. Offsets, sizes and counts are in 64-bit records.
-- Generics: data_w_g (32 | 64 | 128), fifo_depth_log2_g, max_burst_g,
-- ring_log2_g: as jointer_trace_sink_axi.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_trace_sink_decide is
  generic (
    data_w_g          : positive := 64;
    fifo_depth_log2_g : positive := 5;
    max_burst_g       : positive := 16;
    ring_log2_g       : positive := 32);
  port (
    clk       : in  std_logic;
    next_off  : in  std_logic_vector(ring_log2_g - 4 downto 0);   -- offset of the next burst
    written   : in  std_logic_vector(fifo_depth_log2_g downto 0);  -- FIFO pointers (wrap bit on top)
    assigned  : in  std_logic_vector(fifo_depth_log2_g downto 0);
    timed_out : in  std_logic;                                     -- the flush timeout is reached
    rptr      : in  std_logic_vector(ring_log2_g - 4 downto 0);    -- the host's read pointer
    rptr_high : in  std_logic;                                     -- rptr has bits beyond the ring
    size      : in  std_logic_vector(ring_log2_g - 3 downto 0);    -- the ring size
    recs      : out std_logic_vector(9 downto 0);                  -- stage 4: records of the next burst
    len       : out std_logic_vector(7 downto 0);                  -- its AWLEN
    due       : out std_logic;                                     -- it is due
    narrow    : out std_logic;                                     -- 128 bits: a single 64-bit beat
    last_page : out std_logic);                                    -- stage 1: next_off in the last page
end entity jointer_trace_sink_decide;

architecture rtl of jointer_trace_sink_decide is
  constant f_c         : positive := fifo_depth_log2_g;
  constant wide_c      : boolean := data_w_g = 128;                       -- 2 records per beat
  constant rec_beats_c : positive := 2 - data_w_g / 64 + data_w_g / 128;  -- 32: 2, else 1
  constant max_recs_c  : positive := max_burst_g * (1 + data_w_g / 128) / rec_beats_c;
  constant ow_c        : positive := ring_log2_g - 3;                     -- offset bits (records)
  constant cw_c        : positive := maximum(f_c + 1, 10);                -- waiting vs limit
  subtype off_t is unsigned(ow_c - 1 downto 0);          -- a ring offset in records (page: 512)
  subtype size_t is unsigned(ow_c downto 0);             -- a ring size in records
  subtype recs_t is unsigned(9 downto 0);                -- records of a burst, 0..512
  subtype fptr_t is unsigned(f_c downto 0);              -- a FIFO pointer, with its wrap bit
  constant page_mask_c : off_t := not resize(to_unsigned(511, 9), ow_c);  -- x and it: where x's 4 KB page starts
  type decision_t is record        -- the next burst, by pipeline stage (1..4)
    diff      : size_t;            -- 1: rptr - next_off - 1, its sign bit on top
    rptr_big  : std_logic;         -- 1: rptr >= size
    free      : off_t;             -- 2: free records (rptr - next_off - 1) mod size
    rptr_bad  : std_logic;         -- 2: rptr >= size (the rptr of free)
    page_room : recs_t;            -- 1: min(max burst, records to the page end)
    waiting   : fptr_t;            -- 1: records not yet assigned
    last_page : std_logic;         -- 1: next_off is in the ring's last page
    timed_out : std_logic;         -- 1: the flush timeout is reached
    limit     : recs_t;            -- 3: min(page_room, free)
    recs      : recs_t;            -- 4: records of the next burst
    due, narrow : std_logic;       -- 4: it is due; 128 bits: a single 64-bit beat
    len       : unsigned(7 downto 0);  -- 4: its AWLEN
  end record;

  -- the pipeline, one stage on: recs = min(waiting, limit), due when waiting
  -- >= limit or on the flush timeout; the ports as unsigned (off: next_off,
  -- wr_ptr/as_ptr: written/assigned, tmo: timed_out, rp: rptr, sz: size)
  function decide(dec : decision_t; off : off_t; wr_ptr, as_ptr : fptr_t; tmo : std_logic;
                  rp : off_t; rp_high : std_logic; sz : size_t) return decision_t is
    constant pages_c : size_t := sz and ("1" & page_mask_c);
    variable v     : decision_t := dec;
    variable short : boolean;  -- fewer records wait than the limit
    variable go    : boolean;  -- due
  begin
    -- stage 1; rptr and size are multiples of a page: comparing pages is enough
    v.diff      := ("0" & rp) + ("0" & not off);  -- diff(ow_c) = 0: rptr <= next_off
    v.rptr_big  := rp_high or to_sl(("0" & (rp and page_mask_c)) >= pages_c);
    v.page_room := minimum(to_unsigned(max_recs_c, 10), 512 - resize(off(8 downto 0), 10));
    v.waiting   := wr_ptr - as_ptr;
    v.last_page := to_sl(("0" & (off and page_mask_c)) + 512 = sz);
    v.timed_out := tmo;
    -- stage 2: the free records, from one rptr sample
    v.free      := resize(dec.diff + (pages_c and (ow_c downto 0 => not dec.diff(ow_c))), ow_c);
    v.rptr_bad  := dec.rptr_big;
    -- stage 3
    if dec.rptr_bad = '1' then
      v.limit := (others => '0');
    elsif (dec.free and page_mask_c) /= 0 then
      v.limit := dec.page_room;
    else
      v.limit := minimum(dec.page_room, resize(dec.free(8 downto 0), 10));
    end if;
    -- stage 4; 128 bits: an odd offset or a lone record goes alone in a 64-bit beat
    short    := resize(dec.waiting, cw_c) < resize(dec.limit, cw_c);
    v.recs   := resize(minimum(resize(dec.waiting, cw_c), resize(dec.limit, cw_c)), 10);
    go       := not short or dec.timed_out = '1';
    v.len    := resize(v.recs * rec_beats_c - 1, 8);
    v.narrow := to_sl(wide_c and (off(0) = '1' or v.recs = 1));
    if v.narrow = '1' then
      v.recs   := to_unsigned(1, 10);
      v.len    := (others => '0');
      go       := go or off(0) = '1';
    elsif wide_c then
      v.len  := resize(shift_right(v.recs, 1) - 1, 8);
      v.recs := v.recs(9 downto 1) & "0";
    end if;
    v.due := to_sl(go and dec.waiting /= 0 and dec.limit /= 0);
    return v;
  end function;

  signal dec : decision_t;
begin

  p_reg : process (clk)
  begin
    if rising_edge(clk) then
      dec <= decide(dec, unsigned(next_off), unsigned(written), unsigned(assigned), timed_out,
                    unsigned(rptr), rptr_high, unsigned(size));
    end if;
  end process;

  recs      <= std_logic_vector(dec.recs);
  len       <= std_logic_vector(dec.len);
  due       <= dec.due;
  narrow    <= dec.narrow;
  last_page <= dec.last_page;

end architecture rtl;
