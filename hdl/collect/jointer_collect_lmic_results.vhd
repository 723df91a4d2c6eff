-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic_results: the RESULT and THRESHOLD registers of an LMIC
-- (doc/internals/collect.md), one generate block per result DCAPF. Read
-- side: every word of the window in one table
-- (0 where no DCAPF maps it), read by index, so the synthesiser builds one
-- binary mux on rd_addr from the device's wide-mux cells instead of a
-- decode and an AND-OR per word (the LMIC ORs the table's word with the
-- other blocks' contributions). A read takes two cycles at one rd_addr
-- (rd, then rd_take): a large window (pipelined_g: more than 8 mapped
-- words, the LMIC's rule, jointer_pkg lmic_pipelined_min_c) registers the
-- word read in the cycle of rd, which is also when the snapshots below are
-- taken (the wide mux ends at a flip-flop); a smaller one answers
-- combinationally and snapshots in the cycle of rd_take, when the port
-- takes the answer (no register where the mux is shallow). Write side on
-- wr; a large window decodes the THRESHOLD words from wr_addr a cycle ahead
-- (jointer_collect_lmic_wsel).
-- - RESULT: ceil(w/32) words, least significant first. A read of the least
--   significant word of a two-word result snapshots the upper word into
--   a shadow, which the upper word reads: a 64-bit value never tears.
-- - Histogram (buckets > 1): N buckets x ceil(w/32) words, bucket 0 first;
--   reading bucket 0's first word snapshots every other word of all N
--   buckets, which then read the snapshot (one consistent histogram).
-- - THRESHOLD: ceil(w/32) words; a lower-word write is staged, the most
--   significant word's write commits the whole value; reset all ones.
--   thr_set(d) pulses on the rising edge of result >= threshold, one cycle
--   after it: the compare is split at bit 32 (upper >=, upper <=, lower >=)
--   and registered, so no carry chain wider than 32 bits meets the IRQ logic.
-- Generics (integer_vector items in DCAPF order; see jointer_collect_lmic):
--   addr_w_g, num_dcapfs_g, dcapf_width_g, dcapf_result_word_g,
--   dcapf_threshold_word_g, dcapf_buckets_g
--   pipelined_g : a large window (the LMIC decides): registered read and
--                 write decodes

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic_results is
  generic (
    addr_w_g               : positive := 6;
    num_dcapfs_g           : natural := 3;
    dcapf_width_g          : integer_vector := (10, 53, 32);
    dcapf_result_word_g    : integer_vector := (6, 7, 9);
    dcapf_threshold_word_g : integer_vector := (-1, 10, -1);
    dcapf_buckets_g        : integer_vector := (0 => 1);
    pipelined_g            : boolean := false);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    rd        : in  std_logic;
    rd_take   : in  std_logic := '0';   -- the read's second cycle (the port takes the answer)
    rd_addr   : in  std_logic_vector(addr_w_g - 1 downto 0);
    rd_data   : out std_logic_vector(31 downto 0);
    rd_hit    : out std_logic;
    wr        : in  std_logic;
    wr_addr   : in  std_logic_vector(addr_w_g - 1 downto 0);
    wr_data   : in  std_logic_vector(31 downto 0);
    dc_result : in  std_logic_vector(64 * maximum(sum_items(dcapf_buckets_g, num_dcapfs_g, 1), 1) - 1
                                     downto 0);
    thr_set   : out std_logic_vector(maximum(num_dcapfs_g, 1) - 1 downto 0));
end entity jointer_collect_lmic_results;

architecture rtl of jointer_collect_lmic_results is
  constant d_c     : natural  := num_dcapfs_g;
  constant dn_c    : positive := maximum(d_c, 1);
  constant words_c : positive := 2 ** addr_w_g;

  type w32_arr_t is array (natural range <>) of std_logic_vector(31 downto 0);

  function width_of(d : natural) return positive is
  begin
    return maximum(1, minimum(64, elem(dcapf_width_g, d, 1)));
  end function;
  function words_of(d : natural) return positive is
  begin
    return (width_of(d) + 31) / 32;
  end function;
  function buckets_of(d : natural) return positive is
  begin
    return maximum(1, elem(dcapf_buckets_g, d, 1));
  end function;
  function slot_of(d : natural) return natural is   -- first 64-bit slot in dc_result
    variable r : natural := 0;
  begin
    for e in 0 to d - 1 loop
      r := r + buckets_of(e);
    end loop;
    return r;
  end function;
  function mask_of(d : natural) return std_logic_vector is
    variable m : std_logic_vector(63 downto 0) := (others => '0');
  begin
    m(width_of(d) - 1 downto 0) := (others => '1');
    return m;
  end function;
  -- a < b, as the borrow of a - b (a carry chain, no wide LUT logic)
  function borrow(a, b : std_logic_vector(31 downto 0)) return std_logic is
    variable diff : unsigned(32 downto 0);
  begin
    diff := unsigned('0' & a) - unsigned('0' & b);
    return diff(32);
  end function;
  -- the words some DCAPF maps (RESULT, histogram, THRESHOLD): rd_hit
  function mapped_f return std_logic_vector is
    variable m : std_logic_vector(0 to words_c - 1) := (others => '0');
    variable rw, tw : integer;
  begin
    for d in 0 to d_c - 1 loop
      rw := elem(dcapf_result_word_g, d, -1);
      tw := elem(dcapf_threshold_word_g, d, -1);
      for j in 0 to buckets_of(d) * words_of(d) - 1 loop
        if rw >= 0 and rw + j < words_c then
          m(rw + j) := '1';
        end if;
      end loop;
      for j in 0 to words_of(d) - 1 loop
        if tw >= 0 and tw + j < words_c then
          m(tw + j) := '1';
        end if;
      end loop;
    end loop;
    return m;
  end function;
  constant mapped_c : std_logic_vector(0 to words_c - 1) := mapped_f;
  signal snap_rd : std_logic;   -- the cycle the read samples the words (snapshots then)
  -- every word of the window (0 where none is mapped), read by index: one
  -- binary mux on rd_addr (the device's wide-mux cells), not a decode per word
  signal tab : w32_arr_t(0 to words_c - 1);
begin

  -- a large window (pipelined_g) registers its read (a mux deeper than two
  -- wide-mux levels) and its write decodes; a smaller one answers
  -- combinationally in the read's second cycle and takes its snapshots then
  snap_rd <= rd when pipelined_g else rd_take;

  g_dcapf : for d in 0 to d_c - 1 generate
    constant rw_c  : integer := elem(dcapf_result_word_g, d, -1);
    constant tw_c  : integer := elem(dcapf_threshold_word_g, d, -1);
    constant nb_c  : positive := buckets_of(d);     -- 1, or the buckets of a histogram
    constant one_c : std_logic := to_sl(nb_c = 1);
    signal res     : std_logic_vector(63 downto 0);
    signal hit_lo  : std_logic;
    signal shadow  : std_logic_vector(31 downto 0);
    signal thr     : std_logic_vector(63 downto 0);
  begin
    assert elem(dcapf_width_g, d, 0) >= 1 and elem(dcapf_width_g, d, 0) <= 64
      report "jointer_collect_lmic_results: dcapf_width_g items must be 1..64" severity failure;
    assert rw_c >= 4 and rw_c + nb_c * words_of(d) <= words_c
      report "jointer_collect_lmic_results: dcapf_result_word_g item outside the window"
      severity failure;
    assert nb_c = 1 or (nb_c <= 64 and tw_c = -1)
      report "jointer_collect_lmic_results: dcapf_buckets_g items must be 1..64, and 1 with a threshold"
      severity failure;
    assert tw_c = -1 or (tw_c >= 4 and tw_c + words_of(d) <= words_c)
      report "jointer_collect_lmic_results: dcapf_threshold_word_g item outside the window"
      severity failure;

    res    <= dc_result(64 * slot_of(d) + 63 downto 64 * slot_of(d)) and mask_of(d);
    hit_lo <= word_at(rd_addr, rw_c) and one_c;

    g_one : if words_of(d) = 1 generate
      shadow <= (others => '0');
    end generate;

    g_two : if words_of(d) = 2 generate
      -- reading the least significant word snapshots the upper word
      process (clk)
      begin
        if rising_edge(clk) then
          if snap_rd = '1' and hit_lo = '1' then
            shadow <= res(63 downto 32) and mask_of(d)(63 downto 32);
          end if;
          if rst = '1' then
            shadow <= (others => '0');
          end if;
        end if;
      end process;
    end generate;

    g_no_thr : if tw_c < 0 generate
      thr        <= (others => '0');
      thr_set(d) <= '0';
    end generate;

    g_thr : if tw_c >= 0 generate
      signal stage : std_logic_vector(31 downto 0);
      signal hi_ge, hi_le, lo_ge : std_logic;   -- the compare, split at bit 32 and registered
      signal ge    : std_logic;                 -- result >= threshold, one cycle late
      signal ge_r  : std_logic;
      signal dec : std_logic_vector(0 to 1);   -- the written word: lower, upper
    begin
      u_wsel : entity work.jointer_collect_lmic_wsel
        generic map (addr_w_g => addr_w_g, first_g => tw_c, words_g => 2, pipelined_g => pipelined_g)
        port map (clk => clk, wr_addr => wr_addr, wsel => dec);
      tab(tw_c) <= thr(31 downto 0);
      g_thr_upper : if words_of(d) = 2 generate
        tab(tw_c + 1) <= thr(63 downto 32);
      end generate;
      ge         <= lo_ge when words_of(d) = 1 else hi_ge and (not hi_le or lo_ge);
      thr_set(d) <= ge and not ge_r;  -- rising edge of result >= threshold

      process (clk)
      begin
        if rising_edge(clk) then
          hi_ge <= not borrow(res(63 downto 32), thr(63 downto 32));
          hi_le <= not borrow(thr(63 downto 32), res(63 downto 32));
          lo_ge <= not borrow(res(31 downto 0), thr(31 downto 0));
          ge_r  <= ge;
          if words_of(d) = 1 then
            if wr = '1' and dec(0) = '1' then
              thr <= (x"00000000" & wr_data) and mask_of(d);
            end if;
          else
            if wr = '1' and dec(0) = '1' then
              stage <= wr_data;  -- staged until the upper word commits it
            end if;
            if wr = '1' and dec(1) = '1' then
              thr <= (wr_data & stage) and mask_of(d);
            end if;
          end if;
          if rst = '1' then
            thr   <= mask_of(d);
            stage <= (others => '0');  -- a lone upper-word write after reset is defined
            hi_ge <= '0';
            hi_le <= '0';
            lo_ge <= '0';
            ge_r  <= '0';
          end if;
        end if;
      end process;
    end generate;

    g_single : if nb_c = 1 generate
      tab(rw_c) <= res(31 downto 0);
      g_upper : if words_of(d) = 2 generate
        tab(rw_c + 1) <= shadow;
      end generate;
    end generate;

    -- histogram: N buckets x W words; the first word snapshots all the others
    g_multi : if nb_c > 1 generate
      constant wpb_c : positive := words_of(d);
      constant nw_c  : positive := nb_c * wpb_c;
      type words_t is array (0 to 2 ** clog2(nw_c) - 1) of std_logic_vector(31 downto 0);
      signal live    : words_t;                    -- word j of the live buckets
      signal snap    : words_t;                    -- snap(0) unused
      signal first   : std_logic;
    begin
      g_live : for j in 0 to 2 ** clog2(nw_c) - 1 generate
        g_word : if j < nw_c generate
          constant b_c  : natural := slot_of(d) + j / wpb_c;   -- the bucket's slot
          constant p_c  : natural := j mod wpb_c;               -- word of the bucket
          constant lo_c : natural := 64 * b_c + 32 * p_c;
          constant m_c  : std_logic_vector(63 downto 0) := mask_of(d);
        begin
          live(j) <= dc_result(lo_c + 31 downto lo_c) and m_c(32 * p_c + 31 downto 32 * p_c);
        end generate;
        g_pad : if j >= nw_c generate
          live(j) <= (others => '0');
        end generate;
      end generate g_live;

      first <= word_at(rd_addr, rw_c);
      tab(rw_c) <= live(0);
      g_tab : for j in 1 to nw_c - 1 generate
        tab(rw_c + j) <= snap(j);
      end generate;

      process (clk)
      begin
        if rising_edge(clk) then
          if snap_rd = '1' and first = '1' then
            snap <= live;
          end if;
          if rst = '1' then
            snap <= (others => (others => '0'));
          end if;
        end if;
      end process;
    end generate;

  end generate;

  g_dcapf_none : if d_c = 0 generate
    thr_set  <= (others => '0');
  end generate;

  g_unmapped : for k in 0 to words_c - 1 generate
    g_zero : if mapped_c(k) = '0' generate
      tab(k) <= (others => '0');
    end generate;
  end generate;

  -- a large window: the read registered in the cycle of rd (the port takes it
  -- a cycle later), so the wide mux of the window's words ends at a flip-flop
  g_reg_read : if pipelined_g generate
    process (clk)
    begin
      if rising_edge(clk) then
        if rd = '1' then
          rd_data <= tab(to_integer(unsigned(rd_addr)));
        end if;
      end if;
    end process;
  end generate;
  g_comb_read : if not pipelined_g generate
    rd_data <= tab(to_integer(unsigned(rd_addr)));
  end generate;
  rd_hit  <= mapped_c(to_integer(unsigned(rd_addr)));

end architecture rtl;
