-- SPDX-License-Identifier: MIT
-- jointer_eig_check_rise: condition checker, clocked: rise = sig and not sig
-- of the previous cycle, per bit (the history register resets to 0, so a
-- bit that is high when reset ends counts as a rise).
-- Paper block: EIG condition checker.
--   width_g : number of independent bits

library ieee;
use ieee.std_logic_1164.all;

entity jointer_eig_check_rise is
  generic (
    width_g : positive := 1);
  port (
    clk  : in  std_logic;
    rst  : in  std_logic;
    sig  : in  std_logic_vector(width_g - 1 downto 0);
    rise : out std_logic_vector(width_g - 1 downto 0));
end entity jointer_eig_check_rise;

architecture rtl of jointer_eig_check_rise is
  signal sig_d : std_logic_vector(width_g - 1 downto 0);
begin

  process (clk)
  begin
    if rising_edge(clk) then
      sig_d <= sig;
      if rst = '1' then
        sig_d <= (others => '0');
      end if;
    end if;
  end process;

  rise <= sig and not sig_d;

end architecture rtl;
