-- SPDX-License-Identifier: MIT
-- jointer_trace_compact: the compact trace encoder. Packs trace
-- records {timestamp, data} into 64-bit units of 1 to 3 records
-- (doc/trace-encoding.md: SYNC, LONG, PAIR, TRIPLE) in front of the trace
-- sink, so that a ring in memory holds 2-3x more records and the memory
-- port carries fewer bytes.
-- Two stages, one record per cycle sustained, no back-pressure:
--  input  : registers the record, its timestamp delta from the previous
--           record and whether it fits 10/10 bits (delta < 2^10, data bits
--           31..10 unchanged), 15/16 bits, or a 30-bit delta;
--  packer : the unit being built (its payload already in the layout of its
--           kind). A record joins it while it fits (greedy: TRIPLE, else
--           PAIR, else LONG); otherwise the unit leaves and the record starts
--           a new one. A full unit (TRIPLE, a PAIR that cannot grow, a SYNC,
--           a record that fits nothing) leaves at the next edge; a partial
--           one after idle_flush_g idle cycles. One unit per edge at most.
-- SYNC (absolute timestamp bits 29..0): the first record after rst/clear,
-- the first record after a dropped unit, a record whose delta does not fit
-- 30 bits, and the record that would be sync_period_g after the last SYNC.
-- Output registered: unit_valid for one cycle with unit_lo (bits 31..0),
-- unit_hi (63..32), unit_n (records in it). A unit offered while unit_ready
-- = 0 is dropped (the sink counts unit_n in LOST): the record pending in
-- the packer then leaves as a SYNC (or the next record is a SYNC).
-- clear (pulse) and rst: pending records (and a record offered in the same
-- cycle) are dropped; the next record is a SYNC.
--   sync_period_g : a SYNC at least every this many records
--   idle_flush_g  : idle cycles before a partial unit leaves

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_trace_compact is
  generic (
    sync_period_g : positive := 256;
    idle_flush_g  : positive := 16);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    clear      : in  std_logic;
    rec_valid  : in  std_logic;
    rec_ts     : in  std_logic_vector(31 downto 0);
    rec_data   : in  std_logic_vector(31 downto 0);
    unit_valid : out std_logic;
    unit_lo    : out std_logic_vector(31 downto 0);
    unit_hi    : out std_logic_vector(31 downto 0);
    unit_n     : out std_logic_vector(1 downto 0);
    unit_ready : in  std_logic);
end entity jointer_trace_compact;

architecture rtl of jointer_trace_compact is

  type reg_t is record
    -- input stage (the record fields are not reset: a_valid qualifies them)
    a_valid : std_logic;
    a_ts    : std_logic_vector(31 downto 0);
    a_data  : std_logic_vector(31 downto 0);
    a_delta : std_logic_vector(29 downto 0);
    a_f10   : std_logic;
    a_f15   : std_logic;
    a_f30   : std_logic;
    -- packer
    n       : unsigned(1 downto 0);                 -- records pending (0..3)
    p       : std_logic_vector(61 downto 0);        -- their payload, in the unit's layout
    p_ts    : std_logic_vector(29 downto 0);        -- timestamp of a single pending record
    p_sync  : std_logic;                            -- the single record leaves as a SYNC
    p_grow  : std_logic;                            -- another record may still join
    p_a10   : std_logic;                            -- the single record fits 10/10
    resync  : std_logic;                            -- the next record loaded is a SYNC
    cnt     : integer range 0 to sync_period_g - 1; -- records since the last SYNC
    idle    : integer range 0 to idle_flush_g - 1;  -- idle edges with a partial unit
    -- output
    u_valid : std_logic;
    u_word  : std_logic_vector(63 downto 0);
    u_n     : unsigned(1 downto 0);
  end record;

  signal r, r_next : reg_t;

begin

  p_comb : process (all)
    variable v        : reg_t;
    variable delta    : unsigned(31 downto 0);
    variable drop     : boolean;  -- the unit offered now is refused
    variable conv     : boolean;  -- the single pending record becomes the SYNC
    variable grow     : boolean;
    variable forced   : boolean;  -- the input record must be a SYNC
    variable fits     : boolean;
    variable emit     : boolean;
    variable cnt_eff  : integer range 0 to sync_period_g - 1;
    variable sync_one : boolean;
  begin
    v := r;

    -- input stage
    v.a_valid := rec_valid;
    if rec_valid = '1' then
      delta     := unsigned(rec_ts) - unsigned(r.a_ts);
      v.a_ts    := rec_ts;
      v.a_data  := rec_data;
      v.a_delta := std_logic_vector(delta(29 downto 0));
      v.a_f30   := to_sl(delta(31 downto 30) = 0);
      v.a_f15   := to_sl(delta(31 downto 15) = 0
                         and rec_data(31 downto 16) = r.a_data(31 downto 16));
      v.a_f10   := to_sl(delta(31 downto 10) = 0
                         and rec_data(31 downto 10) = r.a_data(31 downto 10));
    end if;

    -- packer: a refused unit turns the pending record into a SYNC
    drop     := r.u_valid = '1' and unit_ready = '0';
    conv     := drop and r.n = 1 and r.p_sync = '0';
    sync_one := r.p_sync = '1' or conv;
    grow     := r.p_grow = '1' and not conv;
    cnt_eff  := r.cnt;
    if conv then
      cnt_eff := 0;
    end if;
    forced   := r.resync = '1' or (drop and r.n = 0) or cnt_eff = sync_period_g - 1
                or r.a_f30 = '0';
    fits     := (r.n = 1 and r.a_f15 = '1') or (r.n = 2 and r.a_f10 = '1');
    if r.a_valid = '1' then
      emit := r.n /= 0 and (not grow or forced or not fits);
    else
      emit := r.n /= 0 and (not grow or r.idle = idle_flush_g - 1);
    end if;

    -- the unit leaving (the output register)
    v.u_valid := to_sl(emit);
    v.u_n     := r.n;
    v.u_word(31 downto 0) := r.p(31 downto 0);
    if r.n = 1 and sync_one then
      v.u_word(63 downto 32) := "00" & r.p_ts;
    else
      v.u_word(63 downto 32) := std_logic_vector(r.n) & r.p(61 downto 32);
      if r.n = 1 then
        v.u_word(63 downto 62) := "01";
      end if;
    end if;

    if conv then
      v.p_sync := '1';
      v.p_grow := '0';
      v.cnt    := 0;
    end if;
    if drop and r.n = 0 then
      v.resync := '1';
    end if;

    if r.a_valid = '1' then
      v.idle := 0;
      if emit or r.n = 0 then  -- the record starts a unit
        v.n      := to_unsigned(1, 2);
        v.p      := r.a_delta & r.a_data;
        v.p_ts   := r.a_ts(29 downto 0);
        v.p_a10  := r.a_f10;
        if forced then
          v.p_sync := '1';
          v.p_grow := '0';
          v.resync := '0';
          v.cnt    := 0;
        else
          v.p_sync := '0';
          v.p_grow := r.a_f15;
          v.cnt    := cnt_eff + 1;
        end if;
      else                     -- the record joins it
        v.n   := r.n + 1;
        v.cnt := cnt_eff + 1;
        if r.n = 1 then        -- PAIR: delta 15 & data 15..0, twice
          v.p      := r.p(46 downto 32) & r.p(15 downto 0) & r.a_delta(14 downto 0)
                      & r.a_data(15 downto 0);
          v.p_grow := r.p_a10 and r.a_f10;
        else                   -- TRIPLE: delta 9..0 & data 9..0, three times
          v.p      := "00" & r.p(56 downto 47) & r.p(40 downto 31) & r.p(25 downto 16)
                      & r.p(9 downto 0) & r.a_delta(9 downto 0) & r.a_data(9 downto 0);
          v.p_grow := '0';
        end if;
      end if;
    elsif emit then
      v.n    := to_unsigned(0, 2);
      v.idle := 0;
    elsif r.n /= 0 then
      v.idle := r.idle + 1;
    end if;

    r_next <= v;
  end process p_comb;

  p_reg : process (clk)
  begin
    if rising_edge(clk) then
      r <= r_next;
      if rst = '1' or clear = '1' then
        r.a_valid <= '0';
        r.n       <= (others => '0');
        r.resync  <= '1';
        r.cnt     <= 0;
        r.idle    <= 0;
        r.u_valid <= '0';
      end if;
    end if;
  end process p_reg;

  unit_valid <= r.u_valid;
  unit_lo    <= r.u_word(31 downto 0);
  unit_hi    <= r.u_word(63 downto 32);
  unit_n     <= std_logic_vector(r.u_n);

end architecture rtl;
