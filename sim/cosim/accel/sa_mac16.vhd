-- SPDX-License-Identifier: MIT
-- sa_mac16: the TECS paper's mac_16 actor (section 4.2, fig. 11) of the
-- Selective Accumulations demo coprocessor: multiplies each input token by a
-- constant and outputs the sum of 16 consecutive products, then restarts.
-- One token per cycle at most; the result is valid one cycle after the 16th
-- token. Demo IP observed by jointer, not part of the library.
--   coef_g : the constant factor

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity sa_mac16 is
  generic (
    coef_g : integer := 3);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    clear     : in  std_logic;                      -- new task: forget partial sums
    in_valid  : in  std_logic;
    in_data   : in  std_logic_vector(31 downto 0);  -- signed token
    out_valid : out std_logic;                      -- one-cycle pulse
    out_data  : out std_logic_vector(31 downto 0)); -- signed sum of 16 products
end entity sa_mac16;

architecture rtl of sa_mac16 is
  signal acc   : signed(31 downto 0);
  signal count : unsigned(3 downto 0);
  signal valid : std_logic;
  signal sum   : signed(31 downto 0);
begin

  process (clk)
    variable next_acc : signed(31 downto 0);
  begin
    if rising_edge(clk) then
      valid <= '0';
      if in_valid = '1' then
        next_acc := acc + resize(signed(in_data) * to_signed(coef_g, 32), 32);
        if count = 15 then
          sum   <= next_acc;
          valid <= '1';
          acc   <= (others => '0');
        else
          acc <= next_acc;
        end if;
        count <= count + 1;
      end if;
      if rst = '1' or clear = '1' then
        acc   <= (others => '0');
        count <= (others => '0');
        valid <= '0';
      end if;
    end if;
  end process;

  out_valid <= valid;
  out_data  <= std_logic_vector(sum);

end architecture rtl;
