-- SPDX-License-Identifier: MIT
-- jointer_collect_irq: the interrupt controller of one LMIC (paper fig. 5,
-- "Interrupt Controller"): sticky source bits set by pulses, cleared by a
-- host write-1-to-clear or per bit (soft reset of the owning sniffer), and
-- one level output irq = OR(status and en), registered (from the status
-- register, so irq follows a status change one cycle later).
-- In one cycle: a `set` pulse wins over a host w1c of the same bit (no event
-- is lost); `clr_src` wins over `set` (the soft reset clears the results the
-- set came from).
-- Generics:
--   num_g : number of source bits (1..32)

library ieee;
use ieee.std_logic_1164.all;

entity jointer_collect_irq is
  generic (
    num_g : positive := 3);
  port (
    clk      : in  std_logic;
    rst      : in  std_logic;
    set      : in  std_logic_vector(num_g - 1 downto 0);  -- pulses
    clr_we   : in  std_logic;                             -- host write of IRQ_STATUS
    clr_data : in  std_logic_vector(31 downto 0);         -- 1 = clear this bit
    clr_src  : in  std_logic_vector(num_g - 1 downto 0);  -- pulses: clear this bit
    en       : in  std_logic_vector(num_g - 1 downto 0);
    status   : out std_logic_vector(num_g - 1 downto 0);
    irq      : out std_logic);
end entity jointer_collect_irq;

architecture rtl of jointer_collect_irq is
  signal status_r : std_logic_vector(num_g - 1 downto 0);
  signal irq_r    : std_logic;
begin

  assert num_g <= 32
    report "jointer_collect_irq: num_g must be 1..32" severity failure;

  process (clk)
    variable nxt : std_logic_vector(num_g - 1 downto 0);
  begin
    if rising_edge(clk) then
      nxt := status_r;
      if clr_we = '1' then
        nxt := nxt and not clr_data(num_g - 1 downto 0);
      end if;
      nxt := (nxt or set) and not clr_src;
      status_r <= nxt;
      irq_r    <= or (status_r and en);   -- a cycle after the status: no path set -> irq
      if rst = '1' then
        status_r <= (others => '0');
        irq_r    <= '0';
      end if;
    end if;
  end process;

  status <= status_r;
  irq    <= irq_r;

end architecture rtl;
