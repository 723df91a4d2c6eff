-- SPDX-License-Identifier: MIT
-- jointer_dcapf_counter: the Counter of a DCAPF (paper fig. 7; the sum
-- aggregator): count += inc when en. A true sum above 2^width_g - 1
-- saturates at 2^width_g - 1 (wrap_g false) or wraps modulo 2^width_g
-- (wrap_g true); either way it sets the sticky overflow. clear (wins over
-- en) and reset set count and overflow to 0. Only the inc bits the width
-- needs are added; higher inc bits only count as an overflow.
-- How it saturates costs nothing per bit: with an increment of at most 1
-- (inc_w_g = 1) the carry-out of count + 1 gates the enable (the count stops
-- at all ones); with a wider increment the register wraps and the sticky
-- overflow forces every output bit to 1 (count = register or overflow), a
-- term the LMIC's read mux and the threshold compare absorb.
--   width_g : counter width (1..64)
--   wrap_g  : wrap instead of saturating
--   inc_w_g : bits of inc that can be non-zero (1: count events or cycles)
--   split_g : 0 (default): one carry chain, count shows the sum of the
--             increments up to the last cycle. 1..width_g-1 (the fast
--             variant, for a clock the single chain does not meet): the
--             chain is cut after bit split_g - 1; the low part's carry-out
--             (and the increment's upper bits) are registered and added to
--             the high part one cycle later, and count shows the high part
--             beside the low part delayed by one cycle: always one count,
--             never torn (the low part's carry is in the high part it is
--             shown with), one cycle later than the one-chain counter. clear
--             and reset still zero count and overflow in the next cycle.
--             count comes from a register (saturated: all ones there, the
--             mask before the register), so nothing but routing sits
--             between the counter and the read mux or the threshold
--             compare. The price: a few flip-flops (the high part's
--             increment and carry), no extra LUT against the one-chain
--             counter with a wide increment, whose mask follows its register.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_counter is
  generic (
    width_g : positive := 32;
    wrap_g  : boolean  := false;
    inc_w_g : positive := max_result_w_c;
    split_g : natural  := 0);
  port (
    clk      : in  std_logic;
    rst      : in  std_logic;
    en       : in  std_logic;
    inc      : in  std_logic_vector(max_result_w_c - 1 downto 0);
    clear    : in  std_logic;
    count    : out std_logic_vector(width_g - 1 downto 0);
    overflow : out std_logic);
end entity jointer_dcapf_counter;

architecture rtl of jointer_dcapf_counter is
  -- '1' when a bit of v at position w or above is set
  function upper_set(v : std_logic_vector; w : natural) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in w to v'high loop
      r := r or v(i);
    end loop;
    return r;
  end function;

  constant iw_c   : positive := minimum(inc_w_g, width_g);  -- inc bits added
  constant hold_c : boolean := inc_w_g = 1 and not wrap_g;  -- saturate by holding
  signal ovf_r   : std_logic;
  signal shown   : unsigned(width_g - 1 downto 0);   -- the count, before the overflow mask
begin

  assert width_g <= max_result_w_c and inc_w_g <= max_result_w_c
    report "jointer_dcapf_counter: width_g and inc_w_g must be 1..64" severity failure;
  assert split_g < width_g
    report "jointer_dcapf_counter: split_g must be 0 (one chain) or 1..width_g-1" severity failure;

  g_one : if split_g = 0 generate
    signal count_r : unsigned(width_g - 1 downto 0);
    signal sum     : unsigned(width_g downto 0);
    signal too_big : std_logic;
  begin
    sum     <= ('0' & count_r) + resize(unsigned(inc(iw_c - 1 downto 0)), width_g + 1);
    too_big <= sum(width_g) or upper_set(inc(inc_w_g - 1 downto 0), width_g);

    process (clk)
    begin
      if rising_edge(clk) then
        if en = '1' then
          if too_big = '0' or not hold_c then
            count_r <= sum(width_g - 1 downto 0);
          end if;
          if too_big = '1' then
            ovf_r <= '1';
          end if;
        end if;
        if clear = '1' or rst = '1' then
          count_r <= (others => '0');
          ovf_r   <= '0';
        end if;
      end if;
    end process;
    shown <= count_r;
  end generate;

  -- the fast variant: two chains, the high one a cycle behind (see split_g).
  -- count comes straight from a register: the high part (the accumulator)
  -- beside the low part a cycle late, all ones once the sticky overflow is
  -- set when saturating (the accumulator then no longer matters)
  g_split : if split_g > 0 and not hold_c generate
    constant lw_c : positive := split_g;             -- low part
    constant hw_c : positive := width_g - split_g;   -- high part
    constant lo_inc_c : positive := minimum(iw_c, lw_c);
    signal lo_r       : unsigned(lw_c - 1 downto 0); -- the low part (accumulator)
    signal shown_r    : unsigned(width_g - 1 downto 0);  -- high part & low part a cycle late
    signal inc_hi_r   : unsigned(hw_c - 1 downto 0); -- increment bits of the high part, a cycle late
    signal c_r, big_r : std_logic;                   -- low carry-out, increment above width_g
    signal lo_sum     : unsigned(lw_c downto 0);
    signal hi_cin     : unsigned(hw_c + 1 downto 0); -- hi + inc_hi_r + c_r, c_r as the LSB's carry
    signal hi_sum     : unsigned(hw_c downto 0);
    signal inc_hi     : unsigned(hw_c - 1 downto 0);
    signal ovf_next   : std_logic;
    signal ones_cin   : unsigned(hw_c + 1 downto 0); -- hi + c_r + 1: its carry-out says hi + c_r is all ones
    signal hi_ones_r  : std_logic;                   -- the high part is all ones
  begin
    lo_sum <= ('0' & lo_r) + resize(unsigned(inc(lo_inc_c - 1 downto 0)), lw_c + 1);
    hi_cin <= ('0' & shown_r(width_g - 1 downto lw_c) & '1') + ('0' & inc_hi_r & c_r);   -- one carry chain
    hi_sum <= hi_cin(hw_c + 1 downto 1);
    -- the high part overflows (or the increment is above width_g): with an
    -- increment inside the low part, when it is all ones and the low carry
    -- comes, both registers (a second chain, beside the first, finds "all
    -- ones" a cycle ahead), so no carry chain sits before the all-ones mask;
    -- else the chain's carry-out
    ones_cin <= ('0' & shown_r(width_g - 1 downto lw_c) & '1') + resize(unsigned'(c_r & '1'), hw_c + 2);
    g_ovf_one : if iw_c <= lw_c generate
      ovf_next <= ovf_r or (c_r and hi_ones_r) or big_r;
    end generate;
    g_ovf_inc : if iw_c > lw_c generate
      ovf_next <= ovf_r or hi_sum(hw_c) or big_r;
    end generate;
    g_inc_hi : if iw_c > lw_c generate
      inc_hi <= resize(unsigned(inc(iw_c - 1 downto lw_c)), hw_c);
    end generate;
    g_no_inc_hi : if iw_c <= lw_c generate
      inc_hi <= (others => '0');
    end generate;

    process (clk)
    begin
      if rising_edge(clk) then
        c_r      <= en and lo_sum(lw_c);
        big_r    <= en and upper_set(inc(inc_w_g - 1 downto 0), width_g);
        inc_hi_r <= (others => '0');
        if en = '1' then
          lo_r     <= lo_sum(lw_c - 1 downto 0);
          inc_hi_r <= inc_hi;
        end if;
        shown_r   <= hi_sum(hw_c - 1 downto 0) & lo_r;
        hi_ones_r <= ones_cin(hw_c + 1);
        if ovf_next = '1' and not wrap_g then
          shown_r   <= (others => '1');
          hi_ones_r <= '1';
        end if;
        ovf_r <= ovf_next;
        if clear = '1' or rst = '1' then
          lo_r <= (others => '0'); shown_r <= (others => '0'); hi_ones_r <= to_sl(hw_c = 0);
          inc_hi_r <= (others => '0'); c_r <= '0'; big_r <= '0'; ovf_r <= '0';
        end if;
      end if;
    end process;
    shown <= shown_r;
  end generate;

  -- the fast variant of a counter that saturates by holding (increments of 0
  -- or 1): the count stops at all ones as the one-chain counter's does, so
  -- no all-ones mask (no LUT per bit). The low part holds when it would wrap
  -- while the high part is all ones (no carry is then pending: the low part
  -- is all ones only if it did not wrap the cycle before); "all ones" of the
  -- high part is found a cycle ahead from its register and the pending carry
  -- (two AND trees, no carry chain). The overflow (an increment refused)
  -- shows a cycle later, with the count it belongs to.
  g_split_hold : if split_g > 0 and hold_c generate
    constant lw_c : positive := split_g;             -- low part
    constant hw_c : positive := width_g - split_g;   -- high part
    signal lo_r, lo_d : unsigned(lw_c - 1 downto 0); -- the low part, and as shown
    signal hi_r       : unsigned(hw_c - 1 downto 0);
    signal c_r        : std_logic;                   -- the low part's carry, into the high part
    signal hi_ones_r  : std_logic;                   -- hi_r is all ones
    signal ovf_d      : std_logic;                   -- the refused increment, then shown
    signal lo_sum     : unsigned(lw_c downto 0);
    signal stop       : std_logic;                   -- an increment of the count at all ones
    signal top_ones   : std_logic;                   -- hi_r bits hw_c-1..1 all ones
  begin
    lo_sum   <= ('0' & lo_r) + resize(unsigned(inc(0 downto 0)), lw_c + 1);
    stop     <= en and lo_sum(lw_c) and hi_ones_r;
    top_ones <= '1' when hw_c = 1 else and hi_r(hw_c - 1 downto minimum(1, hw_c - 1));

    process (clk)
    begin
      if rising_edge(clk) then
        c_r <= en and lo_sum(lw_c) and not hi_ones_r;
        if en = '1' and stop = '0' then
          lo_r <= lo_sum(lw_c - 1 downto 0);
        end if;
        lo_d <= lo_r;
        hi_r <= hi_r + unsigned'(0 => c_r);
        -- hi_r + c_r all ones: all ones without the carry, or all ones but bit 0 with it
        hi_ones_r <= top_ones and (hi_r(0) xor c_r);
        if stop = '1' then
          ovf_r <= '1';
        end if;
        ovf_d <= ovf_r;
        if clear = '1' or rst = '1' then
          lo_r <= (others => '0'); lo_d <= (others => '0'); hi_r <= (others => '0');
          c_r <= '0'; hi_ones_r <= to_sl(hw_c = 0); ovf_r <= '0'; ovf_d <= '0';
        end if;
      end if;
    end process;
    shown    <= hi_r & lo_d;
    overflow <= ovf_d;
  end generate;

  count    <= std_logic_vector(shown) when wrap_g or hold_c or split_g > 0
              else std_logic_vector(shown) or (width_g - 1 downto 0 => ovf_r);
  g_ovf : if not (split_g > 0 and hold_c) generate
    overflow <= ovf_r;
  end generate;

end architecture rtl;
