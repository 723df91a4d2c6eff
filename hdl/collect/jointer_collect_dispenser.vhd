-- SPDX-License-Identifier: MIT
-- jointer_collect_dispenser: the sniffer's dispenser (paper section 3.1.1).
-- Turns its LMIC's control lines (PROG, RUN, SOFT_RESET) into the DCAPF
-- controls, and spreads the writes of the sniffer's single INIT register over
-- the DCAPF bounds: write k loads DCAPF k/2, bound k mod 2 (low first); with
-- two words per bound (event data of 33..64 bits), write k loads DCAPF k/4,
-- bound (k/2) mod 2, word k mod 2 (bits 31..0 first): low, low, high, high.
--   run_en     = RUN and PROG is FILTERING or NO_FILTERING   (combinational)
--   use_filter = PROG is FILTERING                           (combinational)
--   clear      = SOFT_RESET and PROG is not IDLE             (combinational)
-- The INIT write pointer restarts at 0 on every `ctrl_we` that writes INIT
-- into this sniffer's PROG (INIT over INIT too); INIT writes outside INIT
-- mode or beyond 2 x words_g x num_dcapfs_g are ignored. The init_* outputs are
-- combinational (in the `init_we` cycle): init_data_o is init_data, the
-- LMIC's held word, stable until its next request, so nothing is copied.
-- Generics:
--   num_dcapfs_g : DCAPFs of the sniffer (1..128)
--   words_g      : INIT words per bound: 1, or 2 for event data wider than
--                  32 bits (init_word then says which; '0' with 1)
--   init_reg_g   : false (default): the init_* outputs as above. true (the
--                  fast variant, for a domain whose clock the INIT path
--                  misses): init_we_o, init_sel, init_hi, init_word and
--                  init_data_o registered, one cycle after init_we: the
--                  sniffer's own copy of the LMIC's held word and select,
--                  so the INIT decode and the word's fan-out to every bound
--                  start from this sniffer's registers (a bound is loaded a
--                  cycle later; the host cannot see it: the next register
--                  access is several cycles away)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_dispenser is
  generic (
    num_dcapfs_g : positive := 2;
    words_g      : positive := 1;
    init_reg_g   : boolean  := false);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    -- from the LMIC
    prog        : in  std_logic_vector(1 downto 0);
    run         : in  std_logic;
    soft_reset  : in  std_logic;   -- pulse
    ctrl_we     : in  std_logic;   -- pulse: a CONTROL write is visible on prog/run
    init_we     : in  std_logic;   -- pulse: this sniffer's INIT register was written
    init_data   : in  std_logic_vector(31 downto 0);
    -- to the DCAPFs
    run_en      : out std_logic;
    use_filter  : out std_logic;
    clear       : out std_logic;
    init_we_o   : out std_logic;
    init_sel    : out std_logic_vector(7 downto 0);
    init_hi     : out std_logic;
    init_word   : out std_logic;
    init_data_o : out std_logic_vector(31 downto 0));
end entity jointer_collect_dispenser;

architecture rtl of jointer_collect_dispenser is
  constant writes_c : positive := 2 * words_g * num_dcapfs_g;  -- bound words to load
  signal ptr     : unsigned(clog2(writes_c + 1) - 1 downto 0);
  signal take    : std_logic;  -- this INIT write loads a bound
  signal in_init : std_logic;
  -- the INIT load as decoded in the init_we cycle
  signal we_d, hi_d, word_d : std_logic;
  signal sel_d  : std_logic_vector(7 downto 0);
begin

  assert num_dcapfs_g <= 128 and words_g <= 2
    report "jointer_collect_dispenser: num_dcapfs_g must be 1..128, words_g 1 or 2" severity failure;

  in_init    <= to_sl(prog = prog_init_c);
  run_en     <= run and prog(1);             -- FILTERING or NO_FILTERING
  use_filter <= prog(1) and not prog(0);     -- FILTERING
  clear      <= soft_reset and (prog(1) or prog(0));

  take <= init_we and in_init and to_sl(ptr < writes_c);

  process (clk)
  begin
    if rising_edge(clk) then
      if ctrl_we = '1' and in_init = '1' then
        ptr <= (others => '0');
      elsif take = '1' then
        ptr <= ptr + 1;
      end if;
      if rst = '1' then
        ptr <= (others => '0');
      end if;
    end if;
  end process;

  we_d <= take;
  g_one : if words_g = 1 generate
    sel_d  <= std_logic_vector(resize(ptr(ptr'high downto 1), 8));
    hi_d   <= ptr(0);
    word_d <= '0';
  end generate;
  g_two : if words_g = 2 generate
    sel_d  <= std_logic_vector(resize(ptr(ptr'high downto 2), 8));
    hi_d   <= ptr(1);
    word_d <= ptr(0);
  end generate;

  g_direct : if not init_reg_g generate
    init_we_o   <= we_d;
    init_sel    <= sel_d;
    init_hi     <= hi_d;
    init_word   <= word_d;
    init_data_o <= init_data;
  end generate;

  g_reg : if init_reg_g generate
    signal we_r, hi_r, word_r : std_logic;
    signal sel_r  : std_logic_vector(7 downto 0);
    signal data_r : std_logic_vector(31 downto 0);
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        we_r   <= we_d and not rst;
        sel_r  <= sel_d;
        hi_r   <= hi_d;
        word_r <= word_d;
        data_r <= init_data;
      end if;
    end process;
    init_we_o   <= we_r;
    init_sel    <= sel_r;
    init_hi     <= hi_r;
    init_word   <= word_r;
    init_data_o <= data_r;
  end generate;

end architecture rtl;
