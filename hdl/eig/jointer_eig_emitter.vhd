-- jointer_eig_emitter: turns candidates into event instances (paper fig. 6d),
-- registered (one cycle): ev_good(i) = cand_valid(i) and every cond bit,
-- ev_data = cand_data, ev_inc = 1 or cand_bytes. Paper block: EIG emitter.
--   lanes_g     : number of lanes (1..32)
--   num_cond_g  : number of condition-checker outputs ANDed in (0..8; with 0
--                 the cond port is one ignored bit)
--   increment_g : increment_one_c (every event weighs 1) or
--                 increment_bytes_c (the interfacer's byte count)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_emitter is
  generic (
    lanes_g     : positive := 1;
    num_cond_g  : natural  := 0;
    increment_g : natural  := increment_one_c);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    cand_valid : in  std_logic_vector(lanes_g - 1 downto 0);
    cand_data  : in  std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : in  std_logic_vector(inc_w_c - 1 downto 0);
    cond       : in  std_logic_vector(maximum(num_cond_g, 1) - 1 downto 0);
    ev_good    : out std_logic_vector(lanes_g - 1 downto 0);
    ev_data    : out std_logic_vector(data_w_c - 1 downto 0);
    ev_inc     : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_emitter;

architecture rtl of jointer_eig_emitter is
  signal all_cond : std_logic;
begin

  assert lanes_g <= 32
    report "jointer_eig_emitter: lanes_g must be 1..32" severity failure;
  assert num_cond_g <= 8
    report "jointer_eig_emitter: num_cond_g must be 0..8" severity failure;
  assert increment_g = increment_one_c or increment_g = increment_bytes_c
    report "jointer_eig_emitter: increment_g must be increment_one_c or increment_bytes_c"
    severity failure;

  all_cond <= '1' when num_cond_g = 0 else and cond;

  process (clk)
  begin
    if rising_edge(clk) then
      ev_good <= cand_valid and (cand_valid'range => all_cond);
      ev_data <= cand_data;
      if increment_g = increment_bytes_c then
        ev_inc <= cand_bytes;
      else
        ev_inc <= std_logic_vector(to_unsigned(1, inc_w_c));
      end if;
      if rst = '1' then
        ev_good <= (others => '0');
      end if;
    end if;
  end process;

end architecture rtl;
