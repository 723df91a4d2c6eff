-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic_sink: the registers of an LMIC's sink traces (YAML
-- mode: sink; doc/internals/trace.md), one generate block per sink.
-- A sink trace has no RAM window: its records go to a ring in memory through
-- a jointer_trace_sink_axi beside the LMIC; this block holds that sink's
-- configuration and reads back its state (layout.SINK_REGS):
--   +0 WPTR (ro)  +1 RPTR (rw)  +2 STATUS (ro: bit 0 ERROR, 1 CONFIG_ERROR,
--   2 BUSY)  +3 WATERMARK (rw, bytes, 0 = off)  +4 BASE (rw)  +5 SIZE (rw)
--   +6 CONTROL (rw: bit 0 ENABLE; bit 1 CLEAR, a one-cycle pulse on sk_clear,
--   reads 0; bit 2 SYNC, a one-cycle pulse on sk_sync, reads 0: the trace
--   records a host synchronisation when it was generated with `sync: true`)
--   +7 LOST (ro)
-- Read side combinational from rd_addr (0 where it does not map the word),
-- write side on wr; every rw register resets to 0 (a sink starts disabled).
-- IRQ sources: wm_set(s) pulses when sk_irq_wm rises (the watermark is
-- reached), err_set(s) when STATUS.ERROR rises (a BRESP error).
-- Generics (integer_vector items in sink order; see jointer_collect_lmic):
--   addr_w_g, num_sinks_g (1..), sink_reg_word_g (word offset of WPTR)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic_sink is
  generic (
    addr_w_g        : positive := 6;
    num_sinks_g     : positive := 1;
    sink_reg_word_g : integer_vector := (0 => 8));
  port (
    clk          : in  std_logic;
    rst          : in  std_logic;
    rd_addr      : in  std_logic_vector(addr_w_g - 1 downto 0);
    rd_data      : out std_logic_vector(31 downto 0);
    rd_hit       : out std_logic;
    wr           : in  std_logic;
    wr_addr      : in  std_logic_vector(addr_w_g - 1 downto 0);
    wr_data      : in  std_logic_vector(31 downto 0);
    -- per sink, 32 bits (or 3, 1) each, sink 0 lowest
    sk_wptr      : in  std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_lost      : in  std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_status    : in  std_logic_vector(3 * num_sinks_g - 1 downto 0);
    sk_irq_wm    : in  std_logic_vector(num_sinks_g - 1 downto 0);
    sk_base      : out std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_size      : out std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_rptr      : out std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_watermark : out std_logic_vector(32 * num_sinks_g - 1 downto 0);
    sk_enable    : out std_logic_vector(num_sinks_g - 1 downto 0);
    sk_clear     : out std_logic_vector(num_sinks_g - 1 downto 0);
    sk_sync      : out std_logic_vector(num_sinks_g - 1 downto 0);
    -- interrupt sources
    wm_set       : out std_logic_vector(num_sinks_g - 1 downto 0);
    err_set      : out std_logic_vector(num_sinks_g - 1 downto 0));
end entity jointer_collect_lmic_sink;

architecture rtl of jointer_collect_lmic_sink is
  constant words_c : positive := 2 ** addr_w_g;
  type w32_arr_t is array (natural range <>) of std_logic_vector(31 downto 0);

  signal s_rdata : w32_arr_t(0 to num_sinks_g - 1);
  signal s_hit   : std_logic_vector(num_sinks_g - 1 downto 0);
begin

  g_sink : for s in 0 to num_sinks_g - 1 generate
    constant rw_c : integer := elem(sink_reg_word_g, s, -1);
    signal hit                      : std_logic_vector(7 downto 0);
    signal rptr, wm, base, size     : std_logic_vector(31 downto 0);
    signal enable, clear, sync      : std_logic;
    signal wm_r, err_r              : std_logic;
    signal status                   : std_logic_vector(2 downto 0);
  begin
    assert rw_c >= 4 and rw_c + 8 <= words_c
      report "jointer_collect_lmic_sink: sink_reg_word_g item outside the window" severity failure;

    g_hit : for k in 0 to 7 generate
      hit(k) <= word_at(rd_addr, rw_c + k);
    end generate;
    s_hit(s) <= or hit;
    status   <= sk_status(3 * s + 2 downto 3 * s);
    s_rdata(s) <= ((31 downto 0 => hit(0)) and sk_wptr(32 * s + 31 downto 32 * s))
               or ((31 downto 0 => hit(1)) and rptr)
               or ((31 downto 0 => hit(2)) and ((31 downto 3 => '0') & status))
               or ((31 downto 0 => hit(3)) and wm)
               or ((31 downto 0 => hit(4)) and base)
               or ((31 downto 0 => hit(5)) and size)
               or ((31 downto 0 => hit(6)) and ((31 downto 1 => '0') & enable))
               or ((31 downto 0 => hit(7)) and sk_lost(32 * s + 31 downto 32 * s));

    process (clk)
    begin
      if rising_edge(clk) then
        wm_r  <= sk_irq_wm(s);
        err_r <= status(0);
        clear <= '0';
        sync  <= '0';
        if wr = '1' then
          if word_at(wr_addr, rw_c + 1) = '1' then
            rptr <= wr_data;
          end if;
          if word_at(wr_addr, rw_c + 3) = '1' then
            wm <= wr_data;
          end if;
          if word_at(wr_addr, rw_c + 4) = '1' then
            base <= wr_data;
          end if;
          if word_at(wr_addr, rw_c + 5) = '1' then
            size <= wr_data;
          end if;
          if word_at(wr_addr, rw_c + 6) = '1' then
            enable <= wr_data(0);
            clear  <= wr_data(1);  -- CLEAR: a one-cycle pulse, reads 0
            sync   <= wr_data(2);  -- SYNC: a one-cycle pulse, reads 0
          end if;
        end if;
        if rst = '1' then
          rptr   <= (others => '0');
          wm     <= (others => '0');
          base   <= (others => '0');
          size   <= (others => '0');
          enable <= '0';
          clear  <= '0';
          sync   <= '0';
          wm_r   <= '0';
          err_r  <= '0';
        end if;
      end if;
    end process;

    sk_rptr(32 * s + 31 downto 32 * s)      <= rptr;
    sk_watermark(32 * s + 31 downto 32 * s) <= wm;
    sk_base(32 * s + 31 downto 32 * s)      <= base;
    sk_size(32 * s + 31 downto 32 * s)      <= size;
    sk_enable(s) <= enable;
    sk_clear(s)  <= clear;
    sk_sync(s)   <= sync;
    wm_set(s)    <= sk_irq_wm(s) and not wm_r;   -- the watermark is reached
    err_set(s)   <= status(0) and not err_r;     -- STATUS.ERROR rises
  end generate;

  process (all)
    variable d : std_logic_vector(31 downto 0);
  begin
    d := (others => '0');
    for s in 0 to num_sinks_g - 1 loop
      d := d or s_rdata(s);
    end loop;
    rd_data <= d;
  end process;
  rd_hit <= or s_hit;

end architecture rtl;
