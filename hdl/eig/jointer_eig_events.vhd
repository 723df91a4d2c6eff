-- SPDX-License-Identifier: MIT
-- jointer_eig_events: interfacer for plain event strobes of a coprocessor
-- (paper section 4, operation level: one lane per internal event), also the
-- host MARK sniffer's interfacer. Every observed input is registered once;
-- lane i gives a candidate in the cycle after strobe i was seen high
-- (edge_g false) or rose (edge_g true: high now, low the cycle before; the
-- history register resets to 0). All lanes share cand_data = the data word
-- sampled with the strobes, zero-extended (0 without a data word), and
-- cand_bytes = 1. Paper block: EIG interfacer (LIB_ADAPT).
--   width_g  : number of strobes / lanes (1..32)
--   data_w_g : width of the data word ev_value (0..32; 0 = no data word,
--              ev_value is then one ignored bit)
--   edge_g   : true = one event per rising edge, false = per high cycle

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_events is
  generic (
    width_g  : positive := 1;
    data_w_g : natural  := 32;
    edge_g   : boolean  := false);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    ev_strobe  : in  std_logic_vector(width_g - 1 downto 0);
    ev_value   : in  std_logic_vector(maximum(data_w_g, 1) - 1 downto 0);
    cand_valid : out std_logic_vector(width_g - 1 downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_events;

architecture rtl of jointer_eig_events is
  signal strobe_r : std_logic_vector(width_g - 1 downto 0);  -- inputs, registered once
  signal strobe_d : std_logic_vector(width_g - 1 downto 0);  -- one cycle older (edge_g)
  signal value_r  : std_logic_vector(data_w_c - 1 downto 0);
begin

  assert width_g <= 32
    report "jointer_eig_events: width_g must be 1..32" severity failure;
  assert data_w_g <= data_w_c
    report "jointer_eig_events: data_w_g must be 0..32" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      strobe_r <= ev_strobe;
      strobe_d <= strobe_r;
      value_r  <= (others => '0');
      if data_w_g > 0 then
        value_r(maximum(data_w_g, 1) - 1 downto 0) <= ev_value;
      end if;
      if rst = '1' then
        strobe_r <= (others => '0');
        strobe_d <= (others => '0');
      end if;
    end if;
  end process;

  cand_valid <= strobe_r and not strobe_d when edge_g else strobe_r;
  cand_data  <= value_r;
  cand_bytes <= std_logic_vector(to_unsigned(1, inc_w_c));

end architecture rtl;
