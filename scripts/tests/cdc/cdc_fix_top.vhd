-- SPDX-License-Identifier: MIT
-- cdc_fix_top: the planted crossings of scripts/tests/test_cdc_check.py, one
-- per value of case_g, between clock a (a_clk, a_resetn) and clock b:
--   0 good    : a flag through cdc_fix_sync, a bus a_data held while a_req is
--               up (a toggles it only after b's acknowledge came back through
--               a synchroniser), captured by b when the synchronised request
--               rises
--   1 bus     : b samples a_data every cycle (no handshake)
--   2 gap     : the flag's synchroniser has logic between its flops
--   3 front   : logic (a_flag xor a_data(0)) in front of the synchroniser
--   4 rst     : b's register uses a's reset (bridge output) as its reset
--   5 rstport : b's register uses a_resetn itself as a synchronous reset
--   6 free    : b captures, with the handshake, a counter a never holds
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity cdc_fix_top is
  generic (case_g : natural := 0);
  port (
    a_clk    : in  std_logic;
    a_resetn : in  std_logic;
    b_clk    : in  std_logic;
    b_resetn : in  std_logic;
    b_en     : in  std_logic;
    b_out    : out std_logic_vector(7 downto 0);
    b_flag   : out std_logic);
end entity cdc_fix_top;

architecture rtl of cdc_fix_top is
  signal a_rst, b_rst   : std_logic;
  signal a_data         : unsigned(7 downto 0) := (others => '0');
  signal a_free         : unsigned(7 downto 0) := (others => '0');
  signal a_flag, a_req  : std_logic := '0';
  signal a_ack          : std_logic;                 -- b_ack synchronised to a
  signal b_req, b_ack   : std_logic := '0';
  signal b_req_s        : std_logic;                 -- a_req synchronised to b
  signal b_data         : std_logic_vector(7 downto 0) := (others => '0');
  signal b_cnt          : unsigned(7 downto 0) := (others => '0');
  signal flag_in        : std_logic;
begin
  u_rst_a : entity work.jointer_collect_reset port map (clk => a_clk, resetn => a_resetn, rst => a_rst);
  u_rst_b : entity work.jointer_collect_reset port map (clk => b_clk, resetn => b_resetn, rst => b_rst);

  -- a: a four-phase request with a held bus
  process (a_clk)
  begin
    if rising_edge(a_clk) then
      a_flag <= not a_flag;
      a_free <= a_free + 1;
      if a_req = '0' and a_ack = '0' then
        a_data <= a_data + 1;
        a_req  <= '1';
      elsif a_req = '1' and a_ack = '1' then
        a_req <= '0';
      end if;
      if a_rst = '1' then
        a_req <= '0';
      end if;
    end if;
  end process;

  u_req_sync : entity work.jointer_collect_sync port map (clk => b_clk, rst => '0', d(0) => a_req, q(0) => b_req_s);
  u_ack_sync : entity work.jointer_collect_sync port map (clk => a_clk, rst => '0', d(0) => b_ack, q(0) => a_ack);

  flag_in <= a_flag xor a_data(0) when case_g = 3 else a_flag;
  u_flag_sync : entity work.cdc_fix_sync
    generic map (gap_g => boolean'pos(case_g = 2))
    port map (clk => b_clk, en => b_en, d => flag_in, q => b_flag);

  process (b_clk)
  begin
    if rising_edge(b_clk) then
      b_ack <= b_req_s;
      if case_g = 1 then
        b_data <= std_logic_vector(a_data);
      elsif b_req_s = '1' and b_ack = '0' and case_g = 6 then
        b_data <= std_logic_vector(a_free);
      elsif b_req_s = '1' and b_ack = '0' then
        b_data <= std_logic_vector(a_data);
      end if;
      b_cnt <= b_cnt + 1;
      if b_rst = '1' then
        b_ack <= '0';
      end if;
      if (case_g = 4 and a_rst = '1') or (case_g = 5 and a_resetn = '0') then
        b_cnt <= (others => '0');
      end if;
    end if;
  end process;

  b_out <= b_data xor std_logic_vector(b_cnt);
end architecture rtl;
