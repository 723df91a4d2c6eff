-- SPDX-License-Identifier: MIT
-- jointer_eig_pc: interfacer of the program monitor (PMTS's "Program
-- Monitor"): compares the program counter of a processor with up to 32
-- addresses programmed at run time and gives one candidate per match, with
-- cand_data = the index of the matching address (the lowest index when
-- several match), cand_bytes = 1. Feeding a trace DCAPF, each match becomes
-- a {timestamp, index} record: function entry/exit addresses give execution
-- times without instrumenting the software. Paper block: EIG interfacer.
--
-- The address table is loaded through the sniffer's INIT path (the
-- dispenser's init_we/init_sel/init_hi/init_data words, PROG = INIT), in
-- the slots after the sniffer's DCAPFs: INIT word w = 2 * (init_sel -
-- init_base_g) + init_hi; word 0 = the enable mask (bit i enables address
-- i), word 1 + i = address i. Other words are ignored. Hard reset clears
-- the enable mask (nothing matches until the host programs it); the
-- addresses are not reset. A new word is used from the next cycle on.
--
-- Timing: pc/valid are registered once (edge t), the comparison result is
-- registered (edge t + 1): the candidate of a PC sampled at edge t is out
-- after edge t + 1, compared with the table as loaded by the INIT words
-- sampled up to edge t.
--   pc_w_g      : program counter bits (1..32); the PC and the addresses
--                 are compared on these bits (address bits above are ignored)
--   num_addr_g  : addresses (1..32)
--   init_base_g : first INIT slot (DCAPF index) of the table = number of
--                 DCAPFs of the sniffer; init_base_g + num_addr_g / 2 <= 255

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_pc is
  generic (
    pc_w_g      : positive := 32;
    num_addr_g  : positive := 32;
    init_base_g : natural  := 0);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    pc_pc      : in  std_logic_vector(pc_w_g - 1 downto 0);
    pc_valid   : in  std_logic;
    init_we    : in  std_logic;
    init_sel   : in  std_logic_vector(7 downto 0);
    init_hi    : in  std_logic;
    init_data  : in  std_logic_vector(data_w_c - 1 downto 0);
    cand_valid : out std_logic_vector(0 downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_pc;

architecture rtl of jointer_eig_pc is
  type addr_array_t is array (0 to num_addr_g - 1) of std_logic_vector(pc_w_g - 1 downto 0);
  signal addr_r  : addr_array_t;
  signal en_r    : std_logic_vector(num_addr_g - 1 downto 0);
  signal pc_r    : std_logic_vector(pc_w_g - 1 downto 0);  -- inputs, registered once
  signal valid_r : std_logic;
  signal match_r : std_logic_vector(num_addr_g - 1 downto 0);

  -- '1' when INIT word w of the table is being written
  function word_hit(we : std_logic; sel : std_logic_vector; hi : std_logic; w : natural)
    return std_logic is
  begin
    return we and to_sl(unsigned(sel) = init_base_g + w / 2)
      and to_sl(hi = to_sl(w mod 2 = 1));
  end function;
begin

  assert pc_w_g <= 32
    report "jointer_eig_pc: pc_w_g must be 1..32" severity failure;
  assert num_addr_g <= 32
    report "jointer_eig_pc: num_addr_g must be 1..32" severity failure;
  assert init_base_g + num_addr_g / 2 <= 255
    report "jointer_eig_pc: the table must fit the INIT slots (init_base_g + num_addr_g / 2 <= 255)"
    severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      pc_r    <= pc_pc;
      valid_r <= pc_valid;
      if word_hit(init_we, init_sel, init_hi, 0) = '1' then
        en_r <= init_data(num_addr_g - 1 downto 0);
      end if;
      for i in 0 to num_addr_g - 1 loop
        if word_hit(init_we, init_sel, init_hi, 1 + i) = '1' then
          addr_r(i) <= init_data(pc_w_g - 1 downto 0);
        end if;
        match_r(i) <= valid_r and en_r(i) and to_sl(pc_r = addr_r(i));
      end loop;
      if rst = '1' then
        valid_r <= '0';
        en_r    <= (others => '0');
        match_r <= (others => '0');
      end if;
    end if;
  end process;

  -- the lowest matching index (priority encoder, 5 bits)
  process (all)
    variable idx : natural range 0 to 31;
  begin
    idx := 0;
    for i in num_addr_g - 1 downto 0 loop
      if match_r(i) = '1' then
        idx := i;
      end if;
    end loop;
    cand_data <= std_logic_vector(to_unsigned(idx, data_w_c));
  end process;

  cand_valid(0) <= or match_r;
  cand_bytes    <= std_logic_vector(to_unsigned(1, inc_w_c));

end architecture rtl;
