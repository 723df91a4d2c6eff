-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic_trace: the TRACE registers and RAM windows of an LMIC
-- (doc/internals/collect.md), one generate block per trace. Read side
-- combinational from rd_addr (0 where it does not map the word), write side
-- on wr. Per trace: +0 WPTR, +1 FILL, +2 STATUS (bit 0 FULL, bit 1
-- OVERFLOW), +3 WATERMARK (rw, log2(depth)+1 bits, 0 = off), +4 DEPTH
-- (records); a relay trace also +5 RPTR (ro), +6 ACK (wo: tr_ack pulses one
-- cycle with tr_ack_n = the written count), +7 LOST (ro); then its RAM
-- window (2 x depth words, aligned to its size): rd_ram marks the read,
-- tr_rd_addr is the word offset, and ram_data the RAM's word one cycle later
-- (with one trace, its RAM's output as it is: no logic after the RAM).
-- wm_set(t) pulses when FILL rises to >= WATERMARK (a cycle later: the
-- compare is registered), full_set(t) when FULL rises.
-- Generics (integer_vector items in trace order; see jointer_collect_lmic):
--   addr_w_g, num_traces_g, trace_reg_word_g, trace_ram_word_g,
--   trace_depth_log2_g, trace_relay_g

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic_trace is
  generic (
    addr_w_g           : positive := 6;
    num_traces_g       : natural := 1;
    trace_reg_word_g   : integer_vector := (0 => 12);
    trace_ram_word_g   : integer_vector := (0 => 32);
    trace_depth_log2_g : integer_vector := (0 => 4);
    trace_relay_g      : integer_vector := (0 => 0));
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    rd          : in  std_logic;
    rd_addr     : in  std_logic_vector(addr_w_g - 1 downto 0);
    rd_data     : out std_logic_vector(31 downto 0);
    rd_hit      : out std_logic;
    rd_ram      : out std_logic;
    ram_data    : out std_logic_vector(31 downto 0);
    wr          : in  std_logic;
    wr_addr     : in  std_logic_vector(addr_w_g - 1 downto 0);
    wr_data     : in  std_logic_vector(31 downto 0);
    -- trace extractors
    tr_wptr     : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_fill     : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_full     : in  std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_overflow : in  std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_rd_addr  : out std_logic_vector(31 downto 0);
    tr_rd_data  : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_ack      : out std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_ack_n    : out std_logic_vector(31 downto 0);
    tr_rptr     : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_lost     : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    -- interrupt sources
    wm_set      : out std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    full_set    : out std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0));
end entity jointer_collect_lmic_trace;

architecture rtl of jointer_collect_lmic_trace is
  constant t_c     : natural  := num_traces_g;
  constant tn_c    : positive := maximum(t_c, 1);
  constant words_c : positive := 2 ** addr_w_g;

  type w32_arr_t is array (natural range <>) of std_logic_vector(31 downto 0);

  function dl_of(t : natural) return positive is
  begin
    return maximum(1, minimum(16, elem(trace_depth_log2_g, t, 1)));
  end function;
  -- word address inside the aligned window of 2**size_log2 words at base
  function in_window(a : std_logic_vector; base, size_log2 : natural) return std_logic is
    constant m : unsigned(a'length - 1 downto 0) := to_unsigned(2 ** size_log2 - 1, a'length);
  begin
    return to_sl((unsigned(a) and not m) = base);
  end function;

  signal t_rdata  : w32_arr_t(0 to tn_c - 1);
  signal t_hit    : std_logic_vector(tn_c - 1 downto 0);
  signal ram_hit  : std_logic_vector(tn_c - 1 downto 0);
  signal ramsel_r : std_logic_vector(tn_c - 1 downto 0);
begin

  g_trace : for t in 0 to t_c - 1 generate
    constant rw_c    : integer := elem(trace_reg_word_g, t, -1);
    constant dl_c    : positive := dl_of(t);
    constant relay_c : boolean := elem(trace_relay_g, t, 0) = 1;
    constant nreg_c  : positive := 5 + 3 * boolean'pos(relay_c);  -- relay: + RPTR, ACK, LOST
    signal fill   : unsigned(31 downto 0);
    signal hit    : std_logic_vector(7 downto 0);
    signal wm     : std_logic_vector(dl_c downto 0);  -- 0..depth
    signal wm_ge  : std_logic;            -- FILL >= WATERMARK (registered compare)
    signal wm_ge_r, full_r, ack_r : std_logic;
    signal word2, word3, word4 : std_logic_vector(31 downto 0);
  begin
    assert elem(trace_depth_log2_g, t, 0) >= 1 and elem(trace_depth_log2_g, t, 0) <= 16
      report "jointer_collect_lmic_trace: trace_depth_log2_g items must be 1..16" severity failure;
    assert rw_c >= 4 and rw_c + nreg_c <= words_c
      report "jointer_collect_lmic_trace: trace_reg_word_g item outside the window" severity failure;
    assert elem(trace_ram_word_g, t, -1) >= 0
           and elem(trace_ram_word_g, t, -1) mod 2 ** (dl_c + 1) = 0
           and elem(trace_ram_word_g, t, -1) + 2 ** (dl_c + 1) <= words_c
      report "jointer_collect_lmic_trace: trace_ram_word_g item unaligned or outside the window"
      severity failure;

    fill <= unsigned(tr_fill(32 * t + 31 downto 32 * t));
    g_hit : for k in 0 to 7 generate
      hit(k) <= word_at(rd_addr, rw_c + k) when k < nreg_c else '0';
    end generate;
    ram_hit(t) <= in_window(rd_addr, elem(trace_ram_word_g, t, 0), dl_c + 1);
    t_hit(t)   <= or hit;

    word2 <= (31 downto 2 => '0') & tr_overflow(t) & tr_full(t);
    word3 <= std_logic_vector(resize(unsigned(wm), 32));
    word4 <= std_logic_vector(to_unsigned(2 ** dl_c, 32));
    t_rdata(t) <= ((31 downto 0 => hit(0)) and tr_wptr(32 * t + 31 downto 32 * t))
               or ((31 downto 0 => hit(1)) and tr_fill(32 * t + 31 downto 32 * t))
               or ((31 downto 0 => hit(2)) and word2)
               or ((31 downto 0 => hit(3)) and word3)
               or ((31 downto 0 => hit(4)) and word4)
               or ((31 downto 0 => hit(5)) and tr_rptr(32 * t + 31 downto 32 * t))
               or ((31 downto 0 => hit(7)) and tr_lost(32 * t + 31 downto 32 * t));

    wm_set(t)   <= wm_ge and not wm_ge_r;          -- FILL rises to >= WATERMARK
    full_set(t) <= tr_full(t) and not full_r;      -- FULL rises
    tr_ack(t)   <= ack_r;

    process (clk)
    begin
      if rising_edge(clk) then
        wm_ge   <= to_sl(unsigned(wm) /= 0 and fill >= unsigned(wm));
        wm_ge_r <= wm_ge;
        full_r  <= tr_full(t);
        ack_r   <= '0';
        if wr = '1' and word_at(wr_addr, rw_c + 3) = '1' then
          wm <= wr_data(dl_c downto 0);
        end if;
        if relay_c and wr = '1' and word_at(wr_addr, rw_c + 6) = '1' then
          ack_r <= '1';  -- ACK (write only): release the written count
        end if;
        if rst = '1' then
          wm      <= (others => '0');
          wm_ge   <= '0';
          wm_ge_r <= '0';
          full_r  <= '0';
          ack_r   <= '0';
        end if;
      end if;
    end process;
  end generate;

  g_trace_none : if t_c = 0 generate
    t_hit    <= (others => '0');
    ram_hit  <= (others => '0');
    t_rdata  <= (others => (others => '0'));
    wm_set   <= (others => '0');
    full_set <= (others => '0');
    tr_ack   <= (others => '0');
  end generate;

  -- the RAM word: the read of this cycle's address arrives in the next
  process (clk)
  begin
    if rising_edge(clk) then
      ramsel_r <= (tn_c - 1 downto 0 => rd) and ram_hit;
    end if;
  end process;

  process (all)
    variable a, d, m : std_logic_vector(31 downto 0);
  begin
    a := (others => '0');
    d := (others => '0');
    m := (others => '0');
    for t in 0 to t_c - 1 loop
      a := a or ((31 downto 0 => ram_hit(t))
                 and std_logic_vector(resize(unsigned(rd_addr(dl_of(t) downto 0)), 32)));
      d := d or t_rdata(t);
      m := m or ((31 downto 0 => ramsel_r(t)) and tr_rd_data(32 * t + 31 downto 32 * t));
    end loop;
    tr_rd_addr <= a;
    rd_data    <= d;
    ram_data   <= m;
    if t_c = 1 then   -- no select: the port takes ram_data only after a RAM read
      ram_data <= tr_rd_data(31 downto 0);
    end if;
  end process;
  rd_hit   <= or t_hit;
  rd_ram   <= or ram_hit;
  tr_ack_n <= wr_data;  -- the held word, stable until the LMIC's next request

end architecture rtl;
