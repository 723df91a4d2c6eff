-- SPDX-License-Identifier: MIT
-- jointer_dcapf_gate: the Data Gating block of a DCAPF (paper fig. 7):
-- good_o = good_i and gate_en, data_o = data_i and mask_g. Combinational.
--   ev_w_g : width of the event data (32; up to 64)
--   mask_g : bits of the event data passed on (default all ones)

library ieee;
use ieee.std_logic_1164.all;
use work.jointer_pkg.all;

entity jointer_dcapf_gate is
  generic (
    ev_w_g : positive := data_w_c;
    mask_g : std_logic_vector(ev_w_g - 1 downto 0) := (others => '1'));
  port (
    good_i  : in  std_logic;
    data_i  : in  std_logic_vector(ev_w_g - 1 downto 0);
    gate_en : in  std_logic;
    good_o  : out std_logic;
    data_o  : out std_logic_vector(ev_w_g - 1 downto 0));
end entity jointer_dcapf_gate;

architecture rtl of jointer_dcapf_gate is
begin

  good_o <= good_i and gate_en;
  data_o <= data_i and mask_g;

end architecture rtl;
